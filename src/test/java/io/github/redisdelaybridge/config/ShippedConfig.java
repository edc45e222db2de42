package io.github.redisdelaybridge.config;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;

/** The settings of the shipped config/application.properties, as a map a test may change before it checks them. */
final class ShippedConfig {

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
}
