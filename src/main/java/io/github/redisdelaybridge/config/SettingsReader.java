package io.github.redisdelaybridge.config;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Reads one setting at a time through {@code lookup} (which returns null for a missing key), each typed, with the key's
 * name in the error when the value is missing or malformed.
 */
record SettingsReader(Function<String, String> lookup) {

    String text(String key) {
        String value = lookup.apply(key);
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("setting " + key + " is missing");
        }
        return value.strip();
    }

    String optional(String key) {
        String value = lookup.apply(key);
        return value == null ? "" : value.strip();
    }

    /**
     * A password or token: the content of the file named by {@code <key>-file} (environment variable
     * {@code <KEY>_FILE}, the usual convention for mounted secrets) when that is set, else the key's own value.
     */
    String secret(String key) {
        String inline = optional(key); // read either way: both keys are known ones
        return optional(key + KafkaClientProperties.FILE_SUFFIX).isEmpty() ? inline : fileContent(key + KafkaClientProperties.FILE_SUFFIX);
    }

    String requiredSecret(String key) {
        String value = secret(key);
        if (value.isEmpty()) {
            throw new IllegalArgumentException("setting " + key + " is missing");
        }
        return value;
    }

    /** The content of the file {@code fileKey} names, without a trailing line break; errors never show the content. */
    String fileContent(String fileKey) {
        String name = optional(fileKey);
        try {
            String content = java.nio.file.Files.readString(Path.of(name), java.nio.charset.StandardCharsets.UTF_8);
            return content.replaceAll("[\\r\\n]+$", "");
        } catch (java.io.IOException | java.nio.file.InvalidPathException e) {
            throw new IllegalArgumentException("setting " + fileKey + ": cannot read the file '" + name + "' ("
                    + e.getClass().getSimpleName() + ")");
        }
    }

    /** A file that must exist; empty: null. */
    Path path(String key) {
        String value = optional(key);
        if (value.isEmpty()) {
            return null;
        }
        Path path = Path.of(value);
        if (!java.nio.file.Files.isReadable(path)) {
            throw new IllegalArgumentException("setting " + key + ": no readable file " + value);
        }
        return path;
    }

    long longValue(String key) {
        try {
            long value = Long.parseLong(text(key));
            if (value < 0) {
                throw new NumberFormatException("negative");
            }
            return value;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("setting " + key + " must be a non-negative whole number, got '" + lookup.apply(key) + "'");
        }
    }

    int intValue(String key) {
        long value = longValue(key);
        if (value > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("setting " + key + " is too large: " + value);
        }
        return (int) value;
    }

    boolean booleanValue(String key) {
        String value = text(key);
        if (!value.equals("true") && !value.equals("false")) {
            throw new IllegalArgumentException("setting " + key + " must be true or false, got '" + value + "'");
        }
        return Boolean.parseBoolean(value);
    }

    double doubleValue(String key) {
        try {
            return Double.parseDouble(text(key));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("setting " + key + " must be a number, got '" + lookup.apply(key) + "'");
        }
    }

    List<String> list(String key) {
        return Arrays.stream(optional(key).split(",")).map(String::strip).filter(s -> !s.isEmpty()).toList();
    }

    /** {@code a=x,b=y}; the value may itself contain '=' or ':'. */
    Map<String, String> map(String key) {
        Map<String, String> map = new LinkedHashMap<>();
        for (String entry : list(key)) {
            int eq = entry.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("setting " + key + " must be name=value pairs, got '" + entry + "'");
            }
            map.put(entry.substring(0, eq).strip(), entry.substring(eq + 1).strip());
        }
        return map;
    }
}
