package io.github.redisdelaybridge.deploy;

import io.github.redisdelaybridge.config.BridgeHome;
import io.github.redisdelaybridge.config.BridgeSettings;
import io.github.redisdelaybridge.config.RoutePlaceholders;
import io.github.redisdelaybridge.config.SettingsCheck;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the deployment files (Dockerfile, docker-compose.yml, deploy/kubernetes) are checked against, taken
 * from the code and the shipped configuration, never from a list kept by hand: the keys the bridge reads
 * (recorded while {@link BridgeSettings#from} reads the shipped settings, plus the routes' placeholders),
 * the camel.* keys of config/application.properties, the variables the start script reads, the HTTP port
 * and the shutdown timeout.
 */
final class BridgeFacts {

    static final Path CONFIG = Path.of(BridgeHome.CONFIG_FILE);
    static final Path START_SCRIPT = Path.of("bin/redis-delay-bridge");

    private BridgeFacts() {
    }

    static Properties shippedConfig() {
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(CONFIG, StandardCharsets.UTF_8)) {
            properties.load(reader);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return properties;
    }

    /** Every bridge.* key the bridge reads: its settings, the routes' placeholders, bridge.home. */
    static Set<String> bridgeKeys() {
        Properties config = shippedConfig();
        SettingsCheck.RecordingLookup lookup = new SettingsCheck.RecordingLookup(config::getProperty);
        BridgeSettings.from(lookup);
        Set<String> keys = new TreeSet<>(lookup.keys());
        keys.addAll(RoutePlaceholders.placeholderKeys("file:routes/*.yaml"));
        keys.add(BridgeHome.PROPERTY);
        return keys;
    }

    /** Environment variable -> the key it sets, for every variable the bridge or its start script reads. */
    static Map<String, String> variables() {
        Map<String, String> variables = new TreeMap<>();
        bridgeKeys().forEach(key -> variables.put(SettingsCheck.environmentVariable(key), key));
        shippedConfig().stringPropertyNames().stream().filter(key -> key.startsWith("camel."))
                .filter(key -> !SettingsCheck.isServiceLinkShaped(SettingsCheck.environmentVariable(key)))
                .forEach(key -> variables.put(SettingsCheck.environmentVariable(key), key));
        try {
            Matcher m = Pattern.compile("\\$\\{?([A-Z][A-Z0-9_]*)").matcher(Files.readString(START_SCRIPT));
            while (m.find()) {
                variables.put(m.group(1), "(read by " + START_SCRIPT + ")");
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return variables;
    }

    /** Null when the bridge reads this environment variable, else why it does not. */
    static String whyNotRead(String variable) {
        Map<String, String> variables = variables();
        if (variables.containsKey(variable)) {
            return null;
        }
        if (variable.startsWith("CAMEL_") && SettingsCheck.isServiceLinkShaped(variable)) {
            return variable + " is ignored by Camel Main (it skips variables ending in _PORT): use -D in JAVA_OPTS";
        }
        String closest = variables.keySet().stream()
                .min(java.util.Comparator.comparingInt(v -> distance(v, variable))).orElse("?");
        return variable + " is read by nothing (closest: " + closest + ")";
    }

    static int httpPort() {
        return Integer.parseInt(shippedConfig().getProperty("camel.server.port").strip());
    }

    /** The project's version, from pom.xml. */
    static String projectVersion() {
        try {
            Matcher m = Pattern.compile("<artifactId>redis-delay-bridge</artifactId>\\s*<version>([^<]+)</version>")
                    .matcher(Files.readString(Path.of("pom.xml")));
            if (!m.find()) {
                throw new AssertionError("no version in pom.xml");
            }
            return m.group(1);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static int shutdownTimeoutSeconds() {
        return Integer.parseInt(shippedConfig().getProperty("camel.main.shutdown-timeout").strip());
    }

    /** Seconds of a duration as compose writes it: 45s, 1m30s, 90 (seconds). */
    static long seconds(String duration) {
        Matcher m = Pattern.compile("(?:(\\d+)h)?(?:(\\d+)m(?!s))?(?:(\\d+)s)?").matcher(duration.strip());
        if (duration.strip().matches("\\d+")) {
            return Long.parseLong(duration.strip());
        }
        if (!m.matches()) {
            throw new IllegalArgumentException("not a duration: " + duration);
        }
        return (m.group(1) == null ? 0 : Long.parseLong(m.group(1)) * 3600)
                + (m.group(2) == null ? 0 : Long.parseLong(m.group(2)) * 60)
                + (m.group(3) == null ? 0 : Long.parseLong(m.group(3)));
    }

    private static int distance(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            for (int j = 0; j <= b.length(); j++) {
                d[i][j] = i == 0 ? j : j == 0 ? i : Math.min(d[i - 1][j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1),
                        Math.min(d[i - 1][j], d[i][j - 1]) + 1);
            }
        }
        return d[a.length()][b.length()];
    }
}
