package io.github.redisdelaybridge.testkit;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.List;
import org.slf4j.LoggerFactory;

/**
 * Records every log event of this JVM while open, for assertions on what only the logs show, such as a
 * channel closed by RabbitMQ for acking an unknown delivery tag.
 */
public final class LogCapture implements AutoCloseable {

    private final Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    private final ListAppender<ILoggingEvent> appender = new ListAppender<>();

    public LogCapture() {
        appender.start();
        root.addAppender(appender);
    }

    /** Formatted messages (with the message of their exception, if any) that contain {@code text}. */
    public List<String> messagesContaining(String text) {
        synchronized (appender) { // AppenderBase.doAppend adds to the list under the appender's lock
            return appender.list.stream()
                    .map(e -> e.getFormattedMessage() + (e.getThrowableProxy() == null ? "" : " " + e.getThrowableProxy().getMessage()))
                    .filter(m -> m.contains(text))
                    .toList();
        }
    }

    /** Formatted messages of events at {@code level} or above (WARN: warnings and errors), from loggers whose name starts with a prefix. */
    public List<String> messagesAtLeast(ch.qos.logback.classic.Level level, String... loggerPrefixes) {
        synchronized (appender) {
            return appender.list.stream()
                    .filter(e -> e.getLevel().isGreaterOrEqual(level))
                    .filter(e -> loggerPrefixes.length == 0 || java.util.Arrays.stream(loggerPrefixes).anyMatch(e.getLoggerName()::startsWith))
                    .map(e -> e.getLoggerName() + ": " + e.getFormattedMessage())
                    .toList();
        }
    }

    @Override
    public void close() {
        root.detachAppender(appender);
        appender.stop();
    }
}
