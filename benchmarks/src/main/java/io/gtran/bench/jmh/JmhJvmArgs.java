package io.gtran.bench.jmh;

/**
 * JVM flags for the JMH forks, one compile-time constant per flag so that every benchmark's
 * {@code @Fork(jvmArgsAppend = {...})} can name them (annotation values must be constants, so a
 * {@code String[]} cannot be shared). Chronicle Map (external ids) needs the module flags on JDK 17;
 * the heap and direct-memory limits leave room for million-edge stores and their comparison graphs.
 *
 * <p>Every benchmark class in this package lists all of them, in this order:
 * <pre>{@code
 * @Fork(value = 1, jvmArgsAppend = {
 *         JmhJvmArgs.XMX, JmhJvmArgs.MAX_DIRECT,
 *         JmhJvmArgs.EXPORTS_NIO_CH, JmhJvmArgs.EXPORTS_JAVAC_FILE, JmhJvmArgs.EXPORTS_INTERNAL_REF,
 *         JmhJvmArgs.EXPORTS_INTERNAL_UTIL, JmhJvmArgs.OPENS_LANG, JmhJvmArgs.OPENS_LANG_REFLECT,
 *         JmhJvmArgs.OPENS_NIO, JmhJvmArgs.OPENS_NIO_CH, JmhJvmArgs.OPENS_INTERNAL_MISC,
 *         JmhJvmArgs.OPENS_IO, JmhJvmArgs.OPENS_UTIL, JmhJvmArgs.NO_ANALYTICS, JmhJvmArgs.NO_ANNOUNCER,
 *         JmhJvmArgs.LOGBACK})
 * }</pre>
 */
final class JmhJvmArgs {
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

    private JmhJvmArgs() {
    }
}
