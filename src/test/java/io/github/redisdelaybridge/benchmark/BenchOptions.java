package io.github.redisdelaybridge.benchmark;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Command-line options of bin/benchmark.
 *
 * <pre>
 *   --scenarios a,b,...   which to run (default all): ceiling, ingest, drain, phases, precision, cycle, peers, pending,
 *                         herd, scaleout, rabbitmq-ingest, rabbitmq-precision, rabbitmq-drain, hostile, failover,
 *                         noisy-neighbour, processes (last,
 *                         so that it finds the in-JVM figures of the run to compare with)
 *   --scale F             multiply every message count by F (default 1 = the counts of docs/benchmark.md)
 *   --quick               --scale 0.1 and short precision steps: about 2 minutes in all
 *   --kafka HOST:PORT     use this Kafka instead of an embedded broker
 *   --redis URI           use this Redis instead of a dedicated redis-server (memory/SLOWLOG then include others' data)
 *   --out FILE            where to write the table as Markdown (default target/benchmark-results.md)
 *   --wait-quiet S        before each scenario, wait up to S seconds until other processes use less than a
 *                         quarter of a core (the machine is shared; the table records what they used)
 *   --repeat R            run ceiling, ingest and drain R times and report the best (default 3, 1 with --quick):
 *                         on a shared machine noise only ever slows a run down
 *   --precision-rate N    the steady rate of the precision scenario's headline step (default 2000, the rate of the precision target)
 *   --no-warmup           skip the JIT warm-up (an untimed ingest and drain of 50,000 messages) before measuring
 *   --redis-priority P    realtime (default): the benchmark's own redis-server processes run at real-time CPU
 *                         priority (RedisCpuPriority), as on a host of their own; normal: as started
 *   --set KEY=VALUE       override a bridge or Camel setting in every bridge instance (repeatable), to try a
 *                         tuning, e.g. --set bridge.dispatch.batch-size=2000
 * </pre>
 */
record BenchOptions(Set<String> scenarios, double scale, boolean quick, String kafka, String redis, String out,
                    Map<String, String> bridgeOverrides, int waitQuietSeconds, int repeats, boolean warmup,
                    int precisionRate, boolean realtimeRedis) {

    static final List<String> ALL = List.of("ceiling", "ingest", "drain", "phases", "precision", "cycle", "peers", "pending", "groups", "herd",
            "scaleout", "rabbitmq-ingest", "rabbitmq-precision", "rabbitmq-drain", "hostile", "failover", "noisy-neighbour", "processes");

    static BenchOptions parse(String[] args) {
        Set<String> scenarios = new LinkedHashSet<>(ALL);
        double scale = 1.0;
        boolean quick = false;
        boolean scaleGiven = false;
        String kafka = null;
        String redis = null;
        String out = "target/benchmark-results.md";
        Map<String, String> overrides = new LinkedHashMap<>();
        int waitQuiet = 0;
        int repeats = -1;
        boolean warmup = true;
        int precisionRate = 2_000;
        boolean realtimeRedis = true;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--scenarios" -> {
                    scenarios = new LinkedHashSet<>();
                    for (String s : args[++i].split(",")) {
                        String name = s.strip().toLowerCase();
                        if (name.equals("all")) {
                            scenarios.addAll(ALL);
                        } else if (!ALL.contains(name)) {
                            throw new IllegalArgumentException("unknown scenario '" + name + "'; known: " + ALL);
                        } else {
                            scenarios.add(name);
                        }
                    }
                }
                case "--scale" -> {
                    scale = Double.parseDouble(args[++i]);
                    scaleGiven = true;
                }
                case "--quick" -> quick = true;
                case "--kafka" -> kafka = args[++i];
                case "--redis" -> redis = args[++i];
                case "--out" -> out = args[++i];
                case "--wait-quiet" -> waitQuiet = Integer.parseInt(args[++i]);
                case "--repeat" -> repeats = Integer.parseInt(args[++i]);
                case "--no-warmup" -> warmup = false;
                case "--precision-rate" -> precisionRate = Integer.parseInt(args[++i]);
                case "--redis-priority" -> {
                    String priority = args[++i];
                    if (!priority.equals("realtime") && !priority.equals("normal")) {
                        throw new IllegalArgumentException("--redis-priority takes realtime or normal, got '" + priority + "'");
                    }
                    realtimeRedis = priority.equals("realtime");
                }
                case "--set" -> {
                    String pair = args[++i];
                    int eq = pair.indexOf('=');
                    if (eq <= 0 || !(pair.startsWith("bridge.") || pair.startsWith("camel."))) {
                        throw new IllegalArgumentException("--set takes bridge.KEY=VALUE or camel.KEY=VALUE, got '" + pair + "'");
                    }
                    overrides.put(pair.substring(0, eq), pair.substring(eq + 1));
                }
                case "--help", "-h" -> {
                    System.out.println("bin/benchmark [--scenarios " + String.join(",", ALL) + "] [--scale F] [--quick]"
                            + " [--kafka HOST:PORT] [--redis URI] [--out FILE] [--wait-quiet S] [--repeat R] [--no-warmup] [--precision-rate N] [--redis-priority realtime|normal] [--set bridge.KEY=VALUE ...]");
                    System.exit(0);
                }
                default -> throw new IllegalArgumentException("unknown option '" + args[i] + "' (try --help)");
            }
        }
        if (quick && !scaleGiven) {
            scale = 0.1;
        }
        List<String> ordered = new ArrayList<>(ALL);
        ordered.retainAll(scenarios);
        return new BenchOptions(new LinkedHashSet<>(ordered), scale, quick, kafka, redis, out, Map.copyOf(overrides), waitQuiet,
                repeats > 0 ? repeats : quick ? 1 : 3, warmup, precisionRate,
                realtimeRedis);
    }

    /** A message count scaled by --scale, never below {@code floor}. */
    int count(int full, int floor) {
        return Math.max(floor, (int) Math.round(full * scale));
    }
}
