package io.github.redisdelaybridge.config;

import io.github.redisdelaybridge.dispatch.Dispatcher;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import org.apache.camel.CamelContext;
import org.apache.camel.spi.PropertiesComponent;

/**
 * Checks the configuration as a whole when the bridge starts, so that a mistake stops the start with one
 * line saying what is wrong instead of dead-lettering every message or being ignored:
 * <ul>
 *   <li>an unknown {@code bridge.*} key (properties file, {@code -D} option) or {@code BRIDGE_*} environment
 *       variable, with the closest known key suggested (variables shaped like Kubernetes service links are left
 *       alone); and a {@code CAMEL_*_PORT} variable, which Camel Main ignores. Known are the keys {@link BridgeSettings#from} reads
 *       (recorded while it reads them, see {@link RecordingLookup}), the {@code {{bridge.*}}} placeholders of
 *       the route files ({@link RoutePlaceholders}), and the launcher's own ({@link BridgeHome});</li>
 *   <li>the lease longer than the publish timeout, the dispatch-stall threshold longer than a healthy cycle;</li>
 *   <li>connections secured as configured ({@link ConnectionSecurityCheck}): TLS stores only where TLS is on, a Redis URI
 *       that parses.</li>
 * </ul>
 * The targets are checked once the policy the bridge applies to messages exists ({@link TargetSettingsCheck}).
 */
public final class SettingsCheck {

    /** Prefix of the keys this check owns; others (camel.*) are Camel's to check. */
    public static final String KEY_PREFIX = "bridge.";

    /** Where Camel Main loads the routes from; their placeholders are keys the bridge reads. */
    public static final String ROUTES_INCLUDE_PATTERN = "camel.main.routes-include-pattern";

    /** Keys and variables read before the settings, by the launcher. */
    private static final Set<String> LAUNCHER_KEYS = Set.of(BridgeHome.PROPERTY);

    private SettingsCheck() {
    }

    /** Reads and checks the settings of this Camel context: its properties, -D options and environment variables. */
    public static BridgeSettings read(CamelContext context) {
        PropertiesComponent properties = context.getPropertiesComponent();
        Set<String> propertyKeys = new TreeSet<>(properties.loadProperties(key -> key.startsWith(KEY_PREFIX)).stringPropertyNames());
        System.getProperties().stringPropertyNames().stream().filter(key -> key.startsWith(KEY_PREFIX)).forEach(propertyKeys::add);
        // a key the properties file does not hold (a -file key, a Kafka pass-through key) may still be set as a variable
        return read(key -> properties.resolveProperty(key).orElseGet(() -> System.getenv(environmentVariable(key))), propertyKeys,
                System.getenv().keySet(), RoutePlaceholders.placeholderKeys(properties.resolveProperty(ROUTES_INCLUDE_PATTERN).orElse(null)));
    }

    /**
     * Reads the settings through {@code lookup} and checks the keys that are set against the keys read.
     *
     * @param propertyKeys        {@code bridge.*} keys set in the properties file, as {@code -D} options or by code
     * @param environmentNames    names of the process's environment variables (only {@code BRIDGE_*} are checked)
     * @param routePlaceholders   {@code bridge.*} keys the routes read (see {@link RoutePlaceholders#placeholderKeys})
     */
    public static BridgeSettings read(Function<String, String> lookup, Collection<String> propertyKeys,
                                      Collection<String> environmentNames, Set<String> routePlaceholders) {
        RecordingLookup recording = new RecordingLookup(lookup);
        BridgeSettings settings;
        try {
            settings = BridgeSettings.from(recording, KafkaClientProperties.keysSet(propertyKeys, environmentNames));
        } catch (InvalidSettingsException e) {
            throw e;
        } catch (IllegalArgumentException e) {
            // The keys after the bad one were not read yet: unknown keys are reported once this is fixed.
            throw new InvalidSettingsException(e.getMessage());
        }
        Set<String> known = new TreeSet<>(recording.keys());
        known.addAll(routePlaceholders);
        known.addAll(LAUNCHER_KEYS);
        List<String> problems = new ArrayList<>(unknownKeys(known, propertyKeys, environmentNames));
        problems.addAll(leaseProblems(settings));
        problems.addAll(dispatchStallProblems(settings));
        problems.addAll(ConnectionSecurityCheck.redisProblems(settings.redisUri(), settings.redisSecurity()));
        if (!problems.isEmpty()) {
            throw new InvalidSettingsException(problems);
        }
        ConnectionSecurityCheck.warnAboutChecksTurnedOff(settings);
        return settings;
    }

    /** One line per {@code bridge.*} key or {@code BRIDGE_*} variable that nothing reads. */
    static List<String> unknownKeys(Set<String> known, Collection<String> propertyKeys, Collection<String> environmentNames) {
        List<String> problems = new ArrayList<>();
        for (String key : new TreeSet<>(propertyKeys)) {
            if (key.startsWith(KEY_PREFIX) && !known.contains(key)) {
                problems.add("unknown setting " + key + ": did you mean " + KeySuggestions.closest(key, known) + "?");
            }
        }
        Map<String, String> keysByVariable = new java.util.TreeMap<>();
        known.forEach(key -> keysByVariable.put(environmentVariable(key), key));
        keysByVariable.put(BridgeHome.ENVIRONMENT_VARIABLE, BridgeHome.PROPERTY);
        String variablePrefix = environmentVariable(KEY_PREFIX);
        for (String name : new TreeSet<>(environmentNames)) {
            if (name.startsWith("CAMEL_") && isServiceLinkShaped(name)) {
                problems.add("environment variable " + name + " is ignored by Camel Main (it skips names ending in _PORT or"
                        + " holding _PORT_, taken for Kubernetes service links): set this option with -D in JAVA_OPTS instead");
            }
            if (name.startsWith(variablePrefix) && !keysByVariable.containsKey(name) && !isServiceLinkShaped(name)) {
                String suggestion = KeySuggestions.closest(name, keysByVariable.keySet());
                problems.add("unknown environment variable " + name + ": did you mean " + suggestion
                        + " (" + keysByVariable.get(suggestion) + ")?");
            }
        }
        return problems;
    }

    /**
     * Shaped like the variables Kubernetes sets for each service ({@code <SERVICE>_SERVICE_HOST},
     * {@code <SERVICE>_PORT_8080_TCP}, ...), which Camel Main skips too: a Service named {@code bridge} must not
     * stop the start.
     */
    public static boolean isServiceLinkShaped(String name) {
        return name.endsWith("_SERVICE_HOST") || name.endsWith("_SERVICE_PORT") || name.contains("_SERVICE_PORT_")
                || name.endsWith("_PORT") || name.contains("_PORT_");
    }

    static List<String> leaseProblems(BridgeSettings settings) {
        long lease = settings.dispatch().leaseMs();
        long publishTimeout = settings.dispatch().publishTimeoutMs();
        long claimAhead = settings.dispatch().claimAheadMs();
        if (lease > publishTimeout + claimAhead) {
            return List.of();
        }
        return List.of("bridge.lease.duration-ms (" + lease + ") must be greater than bridge.dispatch.publish-timeout-ms ("
                + publishTimeout + ") + bridge.dispatch.claim-ahead-ms (" + claimAhead + "): a lease would expire while its publish may"
                + " still succeed, and the message be delivered twice");
    }

    /** A stall threshold a healthy loop can reach would fail liveness, and restart instances, while Redis is merely slow. */
    static List<String> dispatchStallProblems(BridgeSettings settings) {
        long stall = settings.observe().dispatchStallMs();
        long longestCycle = Dispatcher.longestHealthyCycleMs(settings.dispatch());
        if (stall > longestCycle) {
            return List.of();
        }
        return List.of("bridge.health.dispatch-stall-ms (" + stall + ") must be greater than the longest healthy dispatch cycle, "
                + longestCycle + " ms (bridge.dispatch.idle-poll-ms + 2 x bridge.redis.command-timeout-ms + 2000 ms of backoff):"
                + " liveness would fail while Redis is only slow");
    }


    /** {@code bridge.redis.key-prefix} -> {@code BRIDGE_REDIS_KEY_PREFIX}, the environment variable Camel reads for it. */
    public static String environmentVariable(String key) {
        return key.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_');
    }


    /** A lookup that remembers every key asked of it: the keys the code reads. */
    public static final class RecordingLookup implements Function<String, String> {

        private final Function<String, String> lookup;
        private final Set<String> keys = new TreeSet<>();

        public RecordingLookup(Function<String, String> lookup) {
            this.lookup = lookup;
        }

        @Override
        public String apply(String key) {
            keys.add(key);
            return lookup.apply(key);
        }

        public Set<String> keys() {
            return Set.copyOf(keys);
        }
    }
}
