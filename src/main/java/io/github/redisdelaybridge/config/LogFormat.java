package io.github.redisdelaybridge.config;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.PatternLayout;
import ch.qos.logback.classic.encoder.JsonEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.encoder.Encoder;
import ch.qos.logback.core.encoder.LayoutWrappingEncoder;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import org.slf4j.LoggerFactory;

/**
 * How the bridge writes its log to standard output ({@code bridge.log.format}): {@code text}, the lines of logback.xml
 * (control characters of messages escaped, so that each is one line),
 * or {@code json}, one JSON object per line for a log pipeline (Logback's own {@link JsonEncoder}: level, timestamp,
 * thread, logger, the formatted message, the MDC with the message id and target, the key-value pairs of dead-letter
 * and retry lines, and the stack trace as fields). Switched in code rather than in logback.xml so that the setting
 * works from the properties file like every other one; {@code BRIDGE_LOG_FORMAT} set in the environment switches it
 * before the first line.
 */
public enum LogFormat {
    TEXT,
    JSON;

    public static final String KEY = "bridge.log.format";
    static final String JSON_APPENDER = "json";
    static final String TEXT_PATTERN = "%d{HH:mm:ss.SSS} %-5level [%thread] %logger{36} - %" + SingleLineMessageConverter.CONVERSION_WORD
            + "%n%" + SingleLineThrowableConverter.CONVERSION_WORD;

    public static LogFormat parse(String value) {
        String text = value == null ? "" : value.strip().toLowerCase(Locale.ROOT);
        return switch (text) {
            case "", "text" -> TEXT;
            case "json" -> JSON;
            default -> throw new IllegalArgumentException("setting " + KEY + " must be text or json, got '" + value + "'");
        };
    }

    /** Applies the format from the environment or a -D option, before anything else is logged; unknown values wait for the check. */
    public static void applyEarly() {
        String value = System.getProperty(KEY, System.getenv("BRIDGE_LOG_FORMAT"));
        try {
            parse(value).apply();
        } catch (IllegalArgumentException reportedByTheSettingsCheck) {
            // the settings check names the key and stops the start
        }
    }

    /** Makes the root logger write in this format (idempotent). Does nothing when Logback is not the SLF4J binding. */
    public void apply() {
        if (!(LoggerFactory.getILoggerFactory() instanceof LoggerContext context)) {
            return;
        }
        Logger root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        boolean json = root.getAppender(JSON_APPENDER) != null;
        if ((this == JSON) == json) {
            return;
        }
        List<Appender<ILoggingEvent>> previous = new ArrayList<>();
        for (Iterator<Appender<ILoggingEvent>> it = root.iteratorForAppenders(); it.hasNext(); ) {
            previous.add(it.next());
        }
        if (this == JSON) {
            root.addAppender(jsonAppender(context));
            // only the console appenders are replaced: an appender someone added (a file, a test's capture) stays
            previous.stream().filter(ConsoleAppender.class::isInstance).forEach(a -> {
                root.detachAppender(a);
                a.stop();
            });
        } else {
            Appender<ILoggingEvent> jsonAppender = root.getAppender(JSON_APPENDER);
            root.addAppender(textAppender(context));
            root.detachAppender(jsonAppender);
            jsonAppender.stop();
        }
    }

    private static Appender<ILoggingEvent> jsonAppender(LoggerContext context) {
        return console(context, JSON_APPENDER, jsonEncoder(context));
    }

    static Encoder<ILoggingEvent> jsonEncoder(LoggerContext context) {
        JsonEncoder encoder = new JsonEncoder();
        encoder.setContext(context);
        // what a log pipeline indexes: the message as read, not its pattern and arguments apart; no per-line context dump
        encoder.setWithFormattedMessage(true);
        encoder.setWithMessage(false);
        encoder.setWithArguments(false);
        encoder.setWithContext(false);
        encoder.setWithSequenceNumber(false);
        encoder.setWithNanoseconds(false);
        encoder.start();
        return encoder;
    }

    private static Appender<ILoggingEvent> textAppender(LoggerContext context) {
        return console(context, "text", textEncoder(context));
    }

    /** The lines of logback.xml: its pattern, with the same converters (control characters escaped). */
    static Encoder<ILoggingEvent> textEncoder(LoggerContext context) {
        PatternLayout layout = new PatternLayout();
        layout.setContext(context);
        layout.getInstanceConverterMap().put(SingleLineMessageConverter.CONVERSION_WORD, SingleLineMessageConverter::new);
        layout.getInstanceConverterMap().put(SingleLineThrowableConverter.CONVERSION_WORD, SingleLineThrowableConverter::new);
        layout.setPattern(TEXT_PATTERN);
        layout.start();
        LayoutWrappingEncoder<ILoggingEvent> encoder = new LayoutWrappingEncoder<>();
        encoder.setContext(context);
        encoder.setLayout(layout);
        encoder.start();
        return encoder;
    }

    private static Appender<ILoggingEvent> console(LoggerContext context, String name, Encoder<ILoggingEvent> encoder) {
        ConsoleAppender<ILoggingEvent> appender = new ConsoleAppender<>();
        appender.setContext(context);
        appender.setName(name);
        appender.setEncoder(encoder);
        appender.start();
        return appender;
    }
}
