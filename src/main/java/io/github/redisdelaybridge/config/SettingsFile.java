package io.github.redisdelaybridge.config;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * The bridge's settings read without Camel, for the tools shipped with it (bin/publish): from a settings file, each key
 * overridden as the bridge's Camel properties component overrides it, by its environment variable first
 * ({@code BRIDGE_KAFKA_CLIENT_SECURITY_PROTOCOL}), then by a {@code -D} system property. The values then go through
 * {@link BridgeSettings#from} like the bridge's, so {@code -file} / {@code _FILE} secrets, Kafka client properties, TLS
 * stores and the checks of every value are the bridge's own. Not done here: the check for unknown keys against the
 * routes' placeholders (the bridge's start does it, {@link SettingsCheck}), and {@code {{...}}} placeholders inside values.
 */
public final class SettingsFile {

    private SettingsFile() {
    }

    /**
     * The settings of {@code file} with these overrides.
     *
     * @throws InvalidSettingsException the file cannot be read, or a setting is missing or wrong (one line each)
     */
    public static BridgeSettings read(Path file, Map<String, String> environment, Properties systemProperties) {
        Properties fromFile = load(file);
        Function<String, String> lookup = key -> {
            String value = environment.get(SettingsCheck.environmentVariable(key));
            if (value == null) {
                value = systemProperties.getProperty(key);
            }
            return value != null ? value : fromFile.getProperty(key);
        };
        Set<String> propertyKeys = new TreeSet<>(fromFile.stringPropertyNames());
        systemProperties.stringPropertyNames().stream().filter(key -> key.startsWith(SettingsCheck.KEY_PREFIX)).forEach(propertyKeys::add);
        try {
            return BridgeSettings.from(lookup, KafkaClientProperties.keysSet(propertyKeys, environment.keySet()));
        } catch (InvalidSettingsException e) {
            throw e;
        } catch (IllegalArgumentException e) {
            throw new InvalidSettingsException(e.getMessage());
        }
    }

    /** As Camel loads a {@code file:} location: {@link Properties#load(InputStream)}, ISO-8859-1 with {@code \\u} escapes. */
    private static Properties load(Path file) {
        Properties properties = new Properties();
        try (InputStream in = Files.newInputStream(file)) {
            properties.load(in);
        } catch (IOException | IllegalArgumentException e) {
            throw new InvalidSettingsException("cannot read the settings file " + file + " (" + e.getClass().getSimpleName()
                    + (e.getMessage() == null || e.getMessage().equals(file.toString()) ? "" : ": " + e.getMessage()) + ")");
        }
        return properties;
    }
}
