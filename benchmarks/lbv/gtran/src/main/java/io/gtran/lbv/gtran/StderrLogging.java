package io.gtran.lbv.gtran;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.spi.ContextAwareBase;
import org.slf4j.Logger;

/**
 * Logging of the LBV child JVM that runs this module's systems: everything on stderr, so the
 * {@code LBV_RESULT} line stands alone on stdout; gtran at INFO, libraries (Gremlin Server, the
 * driver, Netty, Chronicle) at WARN.
 *
 * <p>A logback {@link Configurator} found through {@code META-INF/services}, not a {@code
 * logback.xml}: gtran-server's jar already holds a {@code logback.xml} (logging to stdout), and two
 * of them on one class path make logback print its warnings, on stdout. When a {@code
 * logback-test.xml} (tests) or {@code -Dlogback.configurationFile} is present, logback's usual
 * configuration runs instead.
 */
public final class StderrLogging extends ContextAwareBase implements Configurator {
    @Override
    public ExecutionStatus configure(LoggerContext context) {
        if (System.getProperty("logback.configurationFile") != null
                || StderrLogging.class.getClassLoader().getResource("logback-test.xml") != null) {
            return ExecutionStatus.INVOKE_NEXT_IF_ANY;
        }
        PatternLayoutEncoder encoder = new PatternLayoutEncoder();
        encoder.setContext(context);
        encoder.setPattern("%d{HH:mm:ss.SSS} %-5level [%thread] %logger{36} - %msg%n");
        encoder.start();
        ConsoleAppender<ILoggingEvent> stderr = new ConsoleAppender<>();
        stderr.setContext(context);
        stderr.setName("STDERR");
        stderr.setTarget("System.err");
        stderr.setEncoder(encoder);
        stderr.start();
        ch.qos.logback.classic.Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
        root.setLevel(Level.WARN);
        root.addAppender(stderr);
        context.getLogger("io.gtran").setLevel(Level.INFO);
        return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
    }
}
