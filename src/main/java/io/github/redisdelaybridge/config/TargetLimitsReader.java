package io.github.redisdelaybridge.config;

import io.github.redisdelaybridge.outbound.TargetLimit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Reads the configured target patterns: {@code bridge.targets.limits} names them in order (a target is governed by the first
 * whose pattern matches it), and each name has {@code bridge.targets.<name>.pattern}, {@code .rate-per-second},
 * {@code .max-in-flight} and {@code .max-lateness-ms} (0 or absent: that control is off). A mistake stops the start with a
 * one-line reason.
 */
final class TargetLimitsReader {

    static final String NAMES_KEY = "bridge.targets.limits";
    /** A name is part of setting keys, of environment variables, of a Redis key and of a metric label. */
    private static final Pattern NAME = Pattern.compile("[a-z0-9]+(-[a-z0-9]+)*");
    private static final int MAX_NAME_CHARS = 64;

    private TargetLimitsReader() {
    }

    static List<TargetLimit> read(SettingsReader r) {
        List<TargetLimit> limits = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (String name : r.list(NAMES_KEY)) {
            if (!NAME.matcher(name).matches() || name.length() > MAX_NAME_CHARS) {
                throw new IllegalArgumentException("setting " + NAMES_KEY + ": '" + name + "' is not a name of lower-case letters, digits"
                        + " and single dashes (at most " + MAX_NAME_CHARS + " characters)");
            }
            if (!seen.add(name)) {
                throw new IllegalArgumentException("setting " + NAMES_KEY + " names '" + name + "' twice");
            }
            String prefix = "bridge.targets." + name + ".";
            String pattern = r.optional(prefix + "pattern");
            if (pattern.isEmpty() || !(pattern.startsWith("kafka:") || pattern.startsWith("rabbitmq:") || pattern.startsWith("*"))) {
                throw new IllegalArgumentException("setting " + prefix + "pattern must be a glob over targets such as kafka:orders.* or"
                        + " rabbitmq:billing/*, got '" + pattern + "'");
            }
            TargetLimit limit = new TargetLimit(name, pattern, intOrZero(r, prefix + "rate-per-second"), intOrZero(r, prefix + "max-in-flight"),
                    r.optional(prefix + "max-lateness-ms").isEmpty() ? 0 : r.longValue(prefix + "max-lateness-ms"));
            if (limit.ratePerSecond() == 0 && limit.maxInFlight() == 0 && limit.maxLatenessMs() == 0) {
                throw new IllegalArgumentException("target pattern " + name + " (" + pattern + ") sets none of " + prefix + "rate-per-second, "
                        + prefix + "max-in-flight, " + prefix + "max-lateness-ms");
            }
            limits.add(limit);
        }
        return List.copyOf(limits);
    }

    private static int intOrZero(SettingsReader r, String key) {
        return r.optional(key).isEmpty() ? 0 : r.intValue(key);
    }
}
