package io.github.redisdelaybridge.config;

import io.github.redisdelaybridge.dispatch.Dispatcher;
import io.github.redisdelaybridge.message.Broker;
import io.github.redisdelaybridge.message.Target;
import io.github.redisdelaybridge.outbound.TargetPolicy;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
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
 *       the route files, and the launcher's own ({@link BridgeHome});</li>
 *   <li>default targets ({@code bridge.kafka.default-targets}, {@code bridge.rabbitmq.default-targets}):
 *       each must name an inbound topic or queue and a target this bridge may deliver to;</li>
 *   <li>the allow-list {@code bridge.targets.allowed}: not empty, and each pattern able to match a target;</li>
 *   <li>the lease longer than the publish timeout;</li>
 *   <li>connections secured as configured ({@link ConnectionSecurityCheck}): TLS stores only where TLS is on, a Redis URI
 *       that parses.</li>
 * </ul>
 */
public final class SettingsCheck {

    /** Prefix of the keys this check owns; others (camel.*) are Camel's to check. */
    public static final String KEY_PREFIX = "bridge.";

    /** Where Camel Main loads the routes from; their placeholders are keys the bridge reads. */
    public static final String ROUTES_INCLUDE_PATTERN = "camel.main.routes-include-pattern";

    /** Keys and variables read before the settings, by the launcher. */
    private static final Set<String> LAUNCHER_KEYS = Set.of(BridgeHome.PROPERTY);

    private static final Pattern PLACEHOLDER = Pattern.compile("\\{\\{\\??(bridge\\.[A-Za-z0-9.\\-]+)(?::[^}]*)?}}");

    private SettingsCheck() {
    }

    /** Reads and checks the settings of this Camel context: its properties, -D options and environment variables. */
    public static BridgeSettings read(CamelContext context) {
        PropertiesComponent properties = context.getPropertiesComponent();
        Set<String> propertyKeys = new TreeSet<>(properties.loadProperties(key -> key.startsWith(KEY_PREFIX)).stringPropertyNames());
        System.getProperties().stringPropertyNames().stream().filter(key -> key.startsWith(KEY_PREFIX)).forEach(propertyKeys::add);
        // a key the properties file does not hold (a -file key, a Kafka pass-through key) may still be set as a variable
        return read(key -> properties.resolveProperty(key).orElseGet(() -> System.getenv(environmentVariable(key))), propertyKeys,
                System.getenv().keySet(), placeholderKeys(properties.resolveProperty(ROUTES_INCLUDE_PATTERN).orElse(null)));
    }

    /**
     * Reads the settings through {@code lookup} and checks the keys that are set against the keys read.
     *
     * @param propertyKeys        {@code bridge.*} keys set in the properties file, as {@code -D} options or by code
     * @param environmentNames    names of the process's environment variables (only {@code BRIDGE_*} are checked)
     * @param routePlaceholders   {@code bridge.*} keys the routes read (see {@link #placeholderKeys})
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

    /** The settings' targets against the policy the bridge will apply to messages; throws if any is wrong. */
    public static void checkTargets(BridgeSettings settings, TargetPolicy policy) {
        List<String> problems = new ArrayList<>(allowListProblems(settings.allowedTargets()));
        problems.addAll(defaultTargetProblems("bridge.kafka.default-targets", "bridge.kafka.inbound-topics",
                settings.defaultTargets(), settings.kafkaInboundTopics(), policy));
        if (settings.rabbitMq().enabled()) {
            problems.addAll(defaultTargetProblems("bridge.rabbitmq.default-targets", "bridge.rabbitmq.inbound-queues",
                    settings.rabbitMq().defaultTargets(), settings.rabbitMq().inboundQueues(), policy));
        }
        if (!problems.isEmpty()) {
            throw new InvalidSettingsException(problems);
        }
    }

    /** One line per {@code bridge.*} key or {@code BRIDGE_*} variable that nothing reads. */
    static List<String> unknownKeys(Set<String> known, Collection<String> propertyKeys, Collection<String> environmentNames) {
        List<String> problems = new ArrayList<>();
        for (String key : new TreeSet<>(propertyKeys)) {
            if (key.startsWith(KEY_PREFIX) && !known.contains(key)) {
                problems.add("unknown setting " + key + ": did you mean " + closest(key, known) + "?");
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
                String suggestion = closest(name, keysByVariable.keySet());
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

    static List<String> allowListProblems(List<String> patterns) {
        if (patterns.isEmpty()) {
            return List.of("bridge.targets.allowed is empty: every target would be refused (forbidden-target); allow all with kafka:*,rabbitmq:*");
        }
        List<String> problems = new ArrayList<>();
        for (String pattern : patterns) {
            int star = pattern.indexOf('*');
            String literal = star < 0 ? pattern : pattern.substring(0, star);
            boolean broker = Stream.of(Broker.values()).map(Broker::scheme).anyMatch(b -> b.startsWith(literal) || literal.startsWith(b));
            if (!broker) {
                problems.add("bridge.targets.allowed: pattern '" + pattern + "' matches no target (targets start with kafka: or rabbitmq:)");
            } else if (star < 0) {
                try {
                    Target.parse(pattern);
                } catch (IllegalArgumentException e) {
                    problems.add("bridge.targets.allowed: pattern '" + pattern + "' matches no target: " + e.getMessage());
                }
            }
        }
        return problems;
    }

    static List<String> defaultTargetProblems(String key, String inboundKey, Map<String, String> defaults, List<String> inbound,
                                              TargetPolicy policy) {
        List<String> problems = new ArrayList<>();
        defaults.forEach((source, text) -> {
            String entry = key + ": " + source + "=" + text;
            if (!inbound.contains(source)) {
                problems.add(entry + ": " + source + " is not in " + inboundKey + " " + inbound);
                return;
            }
            Target target;
            try {
                target = Target.parse(text);
            } catch (IllegalArgumentException e) {
                problems.add(entry + ": " + e.getMessage());
                return;
            }
            String unsupported = policy.whyUnsupported(target);
            String forbidden = policy.whyForbidden(target);
            if (unsupported != null) {
                problems.add(entry + ": " + unsupported);
            } else if (forbidden != null) {
                problems.add(entry + ": " + forbidden);
            }
        });
        return problems;
    }

    /** {@code bridge.redis.key-prefix} -> {@code BRIDGE_REDIS_KEY_PREFIX}, the environment variable Camel reads for it. */
    public static String environmentVariable(String key) {
        return key.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_');
    }

    /**
     * The {@code bridge.*} keys read by {@code {{...}}} placeholders in the route files that
     * {@code camel.main.routes-include-pattern} names ({@code file:} patterns; a {@code *} or {@code ?} in the
     * file name, e.g. {@code file:/opt/bridge/routes/*.yaml}). Other kinds of location are not scanned.
     */
    public static Set<String> placeholderKeys(String routesIncludePattern) {
        Set<String> keys = new TreeSet<>();
        for (Path file : routeFiles(routesIncludePattern)) {
            try {
                Matcher m = PLACEHOLDER.matcher(Files.readString(file, StandardCharsets.UTF_8));
                while (m.find()) {
                    keys.add(m.group(1));
                }
            } catch (IOException e) {
                throw new UncheckedIOException("could not read " + file, e);
            }
        }
        return keys;
    }

    static List<Path> routeFiles(String routesIncludePattern) {
        Set<Path> files = new LinkedHashSet<>();
        if (routesIncludePattern == null) {
            return List.of();
        }
        for (String entry : routesIncludePattern.split(",")) {
            String location = entry.strip();
            if (!location.startsWith("file:")) {
                continue;
            }
            Path path = Path.of(location.substring("file:".length()));
            String name = path.getFileName() == null ? "" : path.getFileName().toString();
            if (name.contains("*") || name.contains("?")) {
                Path directory = path.getParent() == null ? Path.of(".") : path.getParent();
                PathMatcher matcher = FileSystems.getDefault().getPathMatcher("glob:" + name);
                if (Files.isDirectory(directory)) {
                    try (Stream<Path> listed = Files.list(directory)) {
                        listed.filter(p -> matcher.matches(p.getFileName())).sorted().forEach(files::add);
                    } catch (IOException e) {
                        throw new UncheckedIOException("could not list " + directory, e);
                    }
                }
            } else if (Files.isRegularFile(path)) {
                files.add(path);
            }
        }
        return List.copyOf(files);
    }

    /** The candidate nearest to {@code word} by edit distance (ties: the first in order). */
    static String closest(String word, Collection<String> candidates) {
        return candidates.stream()
                .min(Comparator.comparingInt((String c) -> editDistance(word, c)).thenComparing(Comparator.naturalOrder()))
                .orElse("(none)");
    }

    /** Levenshtein distance. */
    static int editDistance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitution, Math.min(previous[j] + 1, current[j - 1] + 1));
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
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
