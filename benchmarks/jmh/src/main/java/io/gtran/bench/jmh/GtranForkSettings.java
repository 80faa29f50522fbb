package io.gtran.bench.jmh;

import org.openjdk.jmh.annotations.Fork;

/**
 * Fork settings shared by every benchmark in this package: each benchmark class extends this one
 * and inherits its {@link Fork} (JMH looks for run annotations on superclasses), so the JVM flags
 * are written once. Chronicle Map (external ids) needs the module flags on JDK 17; the heap and
 * direct-memory limits leave room for million-edge stores and their comparison graphs.
 */
@Fork(value = 1, jvmArgsAppend = {
        GtranForkSettings.XMX, GtranForkSettings.MAX_DIRECT,
        GtranForkSettings.EXPORTS_NIO_CH, GtranForkSettings.EXPORTS_JAVAC_FILE, GtranForkSettings.EXPORTS_INTERNAL_REF,
        GtranForkSettings.EXPORTS_INTERNAL_UTIL, GtranForkSettings.OPENS_LANG, GtranForkSettings.OPENS_LANG_REFLECT,
        GtranForkSettings.OPENS_NIO, GtranForkSettings.OPENS_NIO_CH, GtranForkSettings.OPENS_INTERNAL_MISC,
        GtranForkSettings.OPENS_IO, GtranForkSettings.OPENS_UTIL, GtranForkSettings.NO_ANALYTICS,
        GtranForkSettings.NO_ANNOUNCER, GtranForkSettings.LOGBACK})
public abstract class GtranForkSettings {
    static final String XMX = "-Xmx4g";
    static final String MAX_DIRECT = "-XX:MaxDirectMemorySize=8g";
    static final String EXPORTS_NIO_CH = "--add-exports=java.base/sun.nio.ch=ALL-UNNAMED";
    static final String EXPORTS_JAVAC_FILE = "--add-exports=jdk.compiler/com.sun.tools.javac.file=ALL-UNNAMED";
    static final String EXPORTS_INTERNAL_REF = "--add-exports=java.base/jdk.internal.ref=ALL-UNNAMED";
    static final String EXPORTS_INTERNAL_UTIL = "--add-exports=java.base/jdk.internal.util=ALL-UNNAMED";
    static final String OPENS_LANG = "--add-opens=java.base/java.lang=ALL-UNNAMED";
    static final String OPENS_LANG_REFLECT = "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED";
    static final String OPENS_NIO = "--add-opens=java.base/java.nio=ALL-UNNAMED";
    static final String OPENS_NIO_CH = "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED";
    static final String OPENS_INTERNAL_MISC = "--add-opens=java.base/jdk.internal.misc=ALL-UNNAMED";
    static final String OPENS_IO = "--add-opens=java.base/java.io=ALL-UNNAMED";
    static final String OPENS_UTIL = "--add-opens=java.base/java.util=ALL-UNNAMED";
    static final String NO_ANALYTICS = "-Dchronicle.analytics.disable=true";
    static final String NO_ANNOUNCER = "-Dchronicle.announcer.disable=true";
    /** Logback at WARN on stderr (the default is DEBUG on stdout, which buries JMH's output). */
    static final String LOGBACK = "-Dlogback.configurationFile=io/gtran/bench/jmh/logback-jmh.xml";

}
