package io.gtran.core.io;

import java.io.IOException;
import java.util.Base64;
import java.util.Map;
import org.apache.tinkerpop.gremlin.structure.io.graphson.TinkerPopJacksonModule;
import org.apache.tinkerpop.shaded.jackson.core.JsonGenerator;
import org.apache.tinkerpop.shaded.jackson.core.JsonParser;
import org.apache.tinkerpop.shaded.jackson.databind.DeserializationContext;
import org.apache.tinkerpop.shaded.jackson.databind.SerializerProvider;
import org.apache.tinkerpop.shaded.jackson.databind.deser.std.StdScalarDeserializer;
import org.apache.tinkerpop.shaded.jackson.databind.ser.std.StdScalarSerializer;

/**
 * GraphSON 3 for the one stored value type TinkerPop's modules have no type for: {@code byte[]},
 * written as {@code {"@type":"gtran:Bytes","@value":"<base64>"}}. A reader without this module
 * (one not given {@link GtranIoRegistry}) cannot read such a value.
 */
final class GtranGraphSONModule extends TinkerPopJacksonModule {
    private static final long serialVersionUID = 1L;

    GtranGraphSONModule() {
        super("gtran-graphson");
        addSerializer(byte[].class, new BytesSerializer());
        addDeserializer(byte[].class, new BytesDeserializer());
    }

    @Override
    public Map<Class, String> getTypeDefinitions() {
        return Map.of(byte[].class, "Bytes");
    }

    @Override
    public String getTypeNamespace() {
        return "gtran";
    }

    static final class BytesSerializer extends StdScalarSerializer<byte[]> {
        private static final long serialVersionUID = 1L;

        BytesSerializer() {
            super(byte[].class);
        }

        @Override
        public void serialize(byte[] value, JsonGenerator json, SerializerProvider provider) throws IOException {
            json.writeString(Base64.getEncoder().encodeToString(value));
        }
    }

    static final class BytesDeserializer extends StdScalarDeserializer<byte[]> {
        private static final long serialVersionUID = 1L;

        BytesDeserializer() {
            super(byte[].class);
        }

        @Override
        public byte[] deserialize(JsonParser json, DeserializationContext context) throws IOException {
            return Base64.getDecoder().decode(json.getValueAsString());
        }

        @Override
        public boolean isCachable() {
            return true;
        }
    }
}
