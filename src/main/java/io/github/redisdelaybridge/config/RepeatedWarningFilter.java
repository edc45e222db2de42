package io.github.redisdelaybridge.config;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.turbo.TurboFilter;
import ch.qos.logback.core.spi.FilterReply;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.LoggerFactory;
import org.slf4j.Marker;

/**
 * Bounds the warnings that broker clients repeat while a broker is unreachable: Kafka's network client writes two lines
 * per client per reconnect attempt (about every second), Spring's listener container one per consumer per recovery
 * attempt; unfiltered, a bridge started before its brokers writes about ten lines a second. Of each such warning (same logger, same
 * text but for its numbers) one line per interval gets through; when it next gets through, a line of this filter's own
 * says how many were held back. Other loggers and levels below WARN pass untouched. Configured in logback.xml.
 */
public final class RepeatedWarningFilter extends TurboFilter {

    private static final org.slf4j.Logger LOG = LoggerFactory.getLogger(RepeatedWarningFilter.class);
    private static final int KEY_LENGTH = 100;
    private static final int MAX_KEYS = 1_000;

    private List<String> loggerPrefixes = List.of();
    private long intervalMs = 60_000;
    private final Map<String, long[]> seen = new ConcurrentHashMap<>();

    /** Comma-separated logger name prefixes whose warnings are bounded. */
    public void setLoggers(String prefixes) {
        loggerPrefixes = List.of(prefixes.split("\\s*,\\s*"));
    }

    public void setIntervalMs(long intervalMs) {
        this.intervalMs = intervalMs;
    }

    @Override
    public FilterReply decide(Marker marker, Logger logger, Level level, String format, Object[] params, Throwable t) {
        if (level == null || !level.isGreaterOrEqual(Level.WARN) || format == null || !bounded(logger.getName())) {
            return FilterReply.NEUTRAL;
        }
        String key = logger.getName() + '|' + shape(format);
        long now = System.currentTimeMillis();
        if (seen.size() > MAX_KEYS) {
            seen.clear();
        }
        long[] windowAndHeld = seen.computeIfAbsent(key, k -> new long[] {Long.MIN_VALUE / 2, 0});
        long held;
        synchronized (windowAndHeld) {
            if (now - windowAndHeld[0] < intervalMs) {
                windowAndHeld[1]++;
                return FilterReply.DENY;
            }
            held = windowAndHeld[1];
            windowAndHeld[0] = now;
            windowAndHeld[1] = 0;
        }
        if (held > 0) {
            LOG.info("{} more like the next line from {} held back in the last {} s", held, logger.getName(), intervalMs / 1000);
        }
        return FilterReply.NEUTRAL;
    }

    private boolean bounded(String loggerName) {
        for (String prefix : loggerPrefixes) {
            if (loggerName.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }

    /** The text without its numbers (ports, node ids, counts), cut short: what makes two lines "the same warning". */
    private static String shape(String format) {
        String shape = format.replaceAll("[0-9]+", "#");
        return shape.length() > KEY_LENGTH ? shape.substring(0, KEY_LENGTH) : shape;
    }
}
