package io.github.redisdelaybridge.config;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

/** The settings of the shipped config/application.properties, as a map a test may change before it checks them. */
final class ShippedConfig {

    private static final Set<String> ROUTE_KEYS = RoutePlaceholders.placeholderKeys("file:routes/*.yaml");

    private ShippedConfig() {
    }

    static Map<String, String> settings() throws IOException {
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(Path.of(BridgeHome.CONFIG_FILE), StandardCharsets.UTF_8)) {
            properties.load(reader);
        }
        Map<String, String> config = new HashMap<>();
        properties.stringPropertyNames().forEach(name -> config.put(name, properties.getProperty(name)));
        return config;
    }

    /** The settings as Camel resolves them: a variable over the file's key (see SettingsCheck.read(CamelContext)). */
    static BridgeSettings read(Map<String, String> config, Map<String, String> environment) {
        return SettingsCheck.read(key -> environment.getOrDefault(SettingsCheck.environmentVariable(key), config.get(key)),
                config.keySet(), environment.keySet(), ROUTE_KEYS);
    }

    /** What the start-time check refuses in these settings, one line each; empty when they are fine. */
    static List<String> problems(Map<String, String> config, Map<String, String> environment) {
        try {
            read(config, environment);
            return List.of();
        } catch (InvalidSettingsException e) {
            return e.problems();
        }
    }
}
