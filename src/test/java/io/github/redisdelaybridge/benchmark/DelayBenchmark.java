package io.github.redisdelaybridge.benchmark;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * bin/benchmark: runs the scenarios of docs/benchmark.md against one Kafka and one Redis (started here unless given;
 * scale-out also on a 3-master Redis Cluster it starts; processes also on a Kafka broker and a load generator in
 * processes of their own) and prints one table (also written to target/benchmark-results.md). Every figure is measured in the same
 * run as its references, so ratios compare like with like on this machine. Options: {@link BenchOptions}.
 */
public final class DelayBenchmark {

    private static final String CAPACITY_TARGET = ">= 25,000 msg/s and >= 0.5x ceiling";

    private final BenchOptions options;
    private final ResultTable table = new ResultTable();
    // this run's in-JVM figures, for the rows that compare against them (-1, null: not measured in this run)
    private double ceilingRate = -1;
    private double ingestRate = -1;
    private double drainRate = -1;
    private PrecisionScenario.Step precisionStep;

    private DelayBenchmark(BenchOptions options) {
        this.options = options;
    }

    public static void main(String[] args) throws Exception {
        Locale.setDefault(Locale.ROOT);
        BenchOptions options = BenchOptions.parse(args);
        int exit = new DelayBenchmark(options).run();
        System.exit(exit);
    }

    private int run() throws Exception {
        String loadAtStart = loadAverage();
        long started = System.currentTimeMillis();
        System.out.println("benchmark: scenarios " + options.scenarios() + ", scale " + options.scale() + ", load average " + loadAtStart);
        int failures = 0;
        String redisVersion;
        String redisPriority;
        try (BenchEnvironment env = new BenchEnvironment(options)) {
            redisVersion = env.redis().info("server").lines().filter(l -> l.startsWith("redis_version:"))
                    .map(l -> l.substring("redis_version:".length()).trim()).findFirst().orElse("?");
            redisPriority = env.redisPriority;
            Setting inJvm = Setting.inJvm(env);
            if (options.warmup()) {
                warmup(inJvm, options.scenarios().contains("ceiling"));
            }
            for (String scenario : options.scenarios()) {
                waitQuiet(env);
                System.out.println("\n=== " + scenario + " (" + Instant.now().truncatedTo(ChronoUnit.SECONDS) + ", load " + loadAverage() + ")");
                try {
                    switch (scenario) {
                        case "ceiling" -> ceilingRate = ceiling(inJvm);
                        case "ingest" -> ingestRate = ingest(inJvm, ceilingRate);
                        case "drain" -> drainRate = drain(inJvm, ceilingRate);
                        case "phases" -> phases(env);
                        case "precision" -> precision(env);
                        case "cycle" -> cycle(env);
                        case "peers" -> peers(env);
                        case "pending" -> pending(env);
                        case "groups" -> groups(env);
                        case "herd" -> herd(env);
                        case "scaleout" -> scaleOut(env);
                        case "rabbitmq-ingest" -> rabbitMqIngest(env);
                        case "rabbitmq-precision" -> rabbitMqPrecision(env);
                        case "rabbitmq-drain" -> rabbitMqDrain(env);
                        case "hostile" -> hostile(env);
                        case "failover" -> failover(env);
                        case "noisy-neighbour" -> noisyNeighbour(env);
                        case "processes" -> processes(env);
                        default -> throw new IllegalArgumentException(scenario);
                    }
                } catch (Exception | LinkageError | AssertionError e) {
                    failures++;
                    e.printStackTrace();
                    String message = String.valueOf(e);
                    table.add(scenario, "-", "FAILED: " + (message.length() > 200 ? message.substring(0, 200) + "..." : message), "error");
                }
            }
        }
        long minutes = Math.round((System.currentTimeMillis() - started) / 60_000.0);
        String machine = machineLine(loadAtStart, loadAverage(), redisVersion, redisPriority);
        String runLine = String.format("Run: `bin/benchmark %s` (scale %s, best of %d for ceiling/ingest/drain, %d min), %s.",
                String.join(" ", options.quick() ? "--quick" : "", "--scenarios", String.join(",", options.scenarios())).trim(),
                options.scale(), options.repeats(), minutes, Instant.now().truncatedTo(ChronoUnit.SECONDS));
        String rendered = table.render(machine, runLine);
        System.out.println("\n" + rendered);
        table.write(Path.of(options.out()), rendered);
        System.out.println("written to " + options.out());
        return failures == 0 ? 0 : 1;
    }

    /** An untimed ingest and drain, so that the measured runs meet JIT-compiled code (the first runs are ~2x slower). */
    private void warmup(Setting setting, boolean ceiling) throws Exception {
        System.out.println("\n=== " + setting.namePrefix() + "warm-up (untimed)");
        int n = options.count(50_000, 20_000);
        IngestScenario.measure(setting.env(), setting.namePrefix() + "warmup-ingest", n, 1);
        DrainScenario.measure(setting.env(), setting.namePrefix() + "warmup-drain", n, 1);
        if (ceiling) {
            PassThroughCeiling.measure(setting.env(), setting.namePrefix() + "warmup-ceiling", n);
        }
    }

    /**
     * Where the ceiling, ingest, drain and precision scenarios measure: the benchmark's environment (broker, bridge and
     * load in this JVM), or the processes scenario's. Names their runs and rows; in the processes scenario a figure
     * stands beside this run's in-JVM one.
     */
    private record Setting(BenchEnvironment env, String namePrefix, String rowSuffix) {

        static Setting inJvm(BenchEnvironment env) {
            return new Setting(env, "", "");
        }

        static Setting apart(BenchEnvironment env) {
            return new Setting(env, "processes-", ", Kafka and load generator in processes of their own");
        }

        /** "" in this JVM; else " (in one JVM: 94,607; this 0.95x)", or that the run had no in-JVM figure. */
        String beside(double rate, double inJvmRate) {
            return beside(inJvmRate <= 0 ? null : String.format("%,.0f; this %.2fx", inJvmRate, rate / inJvmRate));
        }

        String beside(String inJvmFigure) {
            if (rowSuffix.isEmpty()) {
                return "";
            }
            return " (in one JVM: " + (inJvmFigure == null ? "not in this run" : inJvmFigure) + ")";
        }
    }

    /** One run of a capacity; {@code index} counts the repeats. */
    private interface Run<T> {
        T run(int index) throws Exception;
    }

    /** Every run of a capacity measured --repeat times, and the best one by its rate (noise only ever slows a run down). */
    private record Runs<T>(List<T> all, T best, List<Double> rates) {
    }

    private <T> Runs<T> repeated(BenchEnvironment env, Run<T> run, ToDoubleFunction<T> rate) throws Exception {
        List<T> all = new ArrayList<>();
        for (int i = 0; i < options.repeats(); i++) {
            if (i > 0) {
                waitQuiet(env);
            }
            all.add(run.run(i));
        }
        return new Runs<>(all, all.stream().max(Comparator.comparingDouble(rate)).orElseThrow(),
                all.stream().map(rate::applyAsDouble).toList());
    }

    private static String runs(List<Double> rates) {
        if (rates.size() == 1) {
            return "";
        }
        StringBuilder all = new StringBuilder("; runs ");
        for (int i = 0; i < rates.size(); i++) {
            all.append(i == 0 ? "" : ", ").append(String.format("%,.0f", rates.get(i)));
        }
        return all.toString();
    }

    /** Measures the ceiling and adds its row; returns its rate. */
    private double ceiling(Setting setting) throws Exception {
        int n = options.count(200_000, 5_000);
        Runs<Double> runs = repeated(setting.env(), i -> PassThroughCeiling.measure(setting.env(), setting.namePrefix() + "ceiling-" + i, n),
                rate -> rate);
        table.add("ceiling: plain Camel Kafka-to-Kafka route" + setting.rowSuffix(), "reference",
                String.format("%,.0f msg/s%s (%,d msgs%s)", runs.best(), setting.beside(runs.best(), ceilingRate), n, runs(runs.rates())), "-");
        return runs.best();
    }

    private static String vsCeiling(double rate, double ceilingRate) {
        boolean absolute = rate >= 25_000;
        if (ceilingRate <= 0) {
            return ResultTable.verdict(absolute, "no ceiling measured in this run");
        }
        double ratio = rate / ceilingRate;
        String detail = String.format("%.2fx ceiling", ratio);
        if (!absolute) {
            detail += String.format(", %.0f%% short of 25,000", 100 * (1 - rate / 25_000));
        }
        return ResultTable.verdict(absolute && ratio >= 0.5, detail);
    }

    /** Measures ingest and adds its row, against {@code ceiling} (of the same setting); returns its rate. */
    private double ingest(Setting setting, double ceiling) throws Exception {
        int n = options.count(200_000, 5_000);
        Runs<IngestScenario.Result> runs = repeated(setting.env(),
                i -> IngestScenario.measure(setting.env(), setting.namePrefix() + "ingest-" + i, n, 1), IngestScenario.Result::committedRate);
        IngestScenario.Result r = runs.best();
        table.add("ingest (1 instance, 60 s delay)" + setting.rowSuffix(), CAPACITY_TARGET,
                String.format("%,.0f msg/s to committed upstream%s (stored: %,.0f) (%,d msgs; %,.0f sync offset commits, %.1f ms each; %s%s)",
                        r.committedRate(), setting.beside(r.committedRate(), ingestRate), r.storedRate(), n, r.commits(), r.commitLatencyMs(),
                        r.cpu(), runs(runs.rates())),
                vsCeiling(r.committedRate(), ceiling));
        return r.committedRate();
    }

    /** Measures drain and adds its row, against {@code ceiling} (of the same setting); returns its rate. */
    private double drain(Setting setting, double ceiling) throws Exception {
        int n = options.count(200_000, 5_000);
        Runs<DrainScenario.Result> runs = repeated(setting.env(),
                i -> DrainScenario.measure(setting.env(), setting.namePrefix() + "drain-" + i, n, 1), DrainScenario.Result::rate);
        DrainScenario.Result r = runs.best();
        table.add("drain (1 instance, all due in one second)" + setting.rowSuffix(), CAPACITY_TARGET,
                String.format("%,.0f msg/s%s (%,d msgs; %s%s)", r.rate(), setting.beside(r.rate(), drainRate), n, r.cpu(), runs(runs.rates())),
                vsCeiling(r.rate(), ceiling));
        return r.rate();
    }

    /**
     * Ceiling, ingest, drain and precision once more with the broker and the load generator in JVMs of their own, as
     * users run them ({@link SeparateProcesses}; the bridge stays in this JVM): each beside this run's in-JVM figure,
     * the capacities against a ceiling measured in the same setting. Shows whether the figures of one shared JVM hold.
     */
    private void processes(BenchEnvironment env) throws Exception {
        try (SeparateProcesses processes = SeparateProcesses.start(env)) {
            Setting apart = Setting.apart(processes.environment());
            if (options.warmup()) {
                warmup(apart, true);
                waitQuiet(env);
            }
            double ceiling = ceiling(apart);
            waitQuiet(env);
            ingest(apart, ceiling);
            waitQuiet(env);
            drain(apart, ceiling);
            waitQuiet(env);
            precisionAtRate(apart, new int[0]);
        }
    }

    private void rabbitMqIngest(BenchEnvironment env) throws Exception {
        int n = options.count(100_000, 5_000);
        int channels = 2;
        int prefetch = 1_000;
        double ceiling = 0;
        double bridge = 0;
        String cpu = "";
        for (int i = 0; i < options.repeats(); i++) {
            if (i > 0) {
                waitQuiet(env);
            }
            ceiling = Math.max(ceiling, RabbitMqIngestScenario.ceiling(env, "rmq-ceiling-" + i, n, channels, prefetch).rate());
            waitQuiet(env);
            RabbitMqIngestScenario.Result run = RabbitMqIngestScenario.bridge(env, "rmq-ingest-" + i, n);
            if (run.rate() > bridge) {
                bridge = run.rate();
                cpu = run.cpu();
            }
        }
        table.add("ceiling: plain RabbitMQ consume-and-ack (" + channels + " channels, prefetch " + prefetch + ")", "reference",
                String.format("%,.0f msg/s (%,d msgs)", ceiling, n), "-");
        double ratio = bridge / ceiling;
        table.add("RabbitMQ ingest (1 instance, 60 s delay)", ">= 10,000 msg/s and >= 0.5x the RabbitMQ ceiling",
                String.format("%,.0f msg/s stored (%,d msgs; %s)", bridge, n, cpu),
                ResultTable.verdict(bridge >= 10_000 && ratio >= 0.5, String.format("%.2fx ceiling", ratio)));
    }

    /**
     * Untimed deliveries before the measured ones. No scenario before this one publishes to RabbitMQ, and the JIT compiler
     * compiling that path takes CPU the broker needs. Over eight deliveries the compiler works 9.2, 4.9 and 1.7 s in the
     * first three, then 0.7-1.7 s in each of the rest without falling further (that is the benchmark JVM's other code: the
     * Kafka broker, Camel): three warm-up deliveries take what a warm-up can (docs/benchmark.md, "The JIT warm-up").
     */
    private static final int RABBITMQ_DELIVERY_WARMUPS = 3;

    private void rabbitMqDrain(BenchEnvironment env) throws Exception {
        // 100,000 messages: a delivery of 50,000 lasts about 4 s, and the broker's rate in so short a run varies by a
        // quarter run to run (the plain publisher's 10,300-16,100 msg/s); over 12 s it varies by 8%
        int n = options.count(100_000, 5_000);
        double ceiling = 0;
        double bridge = 0;
        String cpu = "";
        String warmup = "no warm-up";
        if (options.warmup()) {
            List<String> compiled = new ArrayList<>();
            for (int i = 1; i <= RABBITMQ_DELIVERY_WARMUPS; i++) {
                long before = JitWarmup.compileMillis();
                RabbitMqDrainScenario.bridge(env, "rmq-drain-warmup-" + i, n);
                compiled.add(String.format("%,d", JitWarmup.compileMillis() - before));
                waitQuiet(env);
            }
            warmup = "after " + RABBITMQ_DELIVERY_WARMUPS + " warm-up deliveries (JIT " + String.join(", ", compiled) + " ms)";
        }
        long compiledInBest = 0;
        for (int i = 0; i < options.repeats(); i++) {
            if (i > 0) {
                waitQuiet(env);
            }
            ceiling = Math.max(ceiling, RabbitMqDrainScenario.ceiling(env, "rmq-publish-ceiling-" + i, "rmq-drain-" + i, n).rate());
            waitQuiet(env);
            long compiledBefore = JitWarmup.compileMillis();
            RabbitMqDrainScenario.Result run = RabbitMqDrainScenario.bridge(env, "rmq-drain-" + i, n);
            if (run.rate() > bridge) {
                bridge = run.rate();
                cpu = run.cpu();
                compiledInBest = JitWarmup.compileMillis() - compiledBefore;
            }
        }
        cpu = cpu + "; " + warmup + ", " + String.format("%,d", compiledInBest) + " ms in the best measured one";
        table.add("ceiling: plain RabbitMQ publish with confirms (one channel, persistent, mandatory, the bridge's headers)", "reference",
                String.format("%,.0f msg/s (%,d msgs)", ceiling, n), "-");
        double ratio = bridge / ceiling;
        table.add("RabbitMQ delivery (1 instance, all due in one second, to a queue)", ">= 0.8x the publish ceiling",
                String.format("%,.0f msg/s (%,d msgs; %s)", bridge, n, cpu), ResultTable.verdict(ratio >= 0.8, String.format("%.2fx ceiling", ratio)));
    }

    private void rabbitMqPrecision(BenchEnvironment env) throws Exception {
        long stepMs = precisionStepMs();
        RabbitMqPrecisionScenario.Step s = RabbitMqPrecisionScenario.measure(env, options.precisionRate(), stepMs, precisionWarmupMs());
        // judged like the Kafka scenario, from the due time the bridge computed on storing the message (the delay counts from
        // there, README); the producer's view, which adds the wait in the queue and the batch, is reported beside it
        LatencyRecorder l = s.lateness();
        table.add(String.format("RabbitMQ-inbound precision at %,d msg/s (1 s delay, %d s, Kafka target)", options.precisionRate(),
                        stepMs / 1000), "p50 <= 5, p99 <= 25, max <= 250 ms, never early (as Kafka's)",
                String.format("%s, early %d; %s (from the producer's publish + delay: %s); %s (%s)", l.summary("ms"), l.countBelow(0),
                        s.split(), s.fromIntendedDue().summary("ms"), s.warmup(), s.cpu()),
                precisionVerdict(s.sent(), s.arrived(), l));
    }

    /** MET, or MISSED with what a precision step missed of the precision target's bounds. */
    private static String precisionVerdict(long sent, long arrived, LatencyRecorder l) {
        List<String> missed = precisionMisses(sent, arrived, l);
        return ResultTable.verdict(missed.isEmpty(), String.join(", ", missed));
    }

    /** What a precision step missed of the precision target's bounds (p50 <= 5, p99 <= 25, max <= 250 ms, never early); empty if it met them. */
    private static List<String> precisionMisses(long sent, long arrived, LatencyRecorder l) {
        List<String> missed = new ArrayList<>();
        if (arrived < sent) {
            missed.add("only " + arrived + " of " + sent + " arrived");
        }
        if (l.percentile(50) > 5) {
            missed.add("p50 " + l.percentile(50) + " > 5");
        }
        if (l.percentile(99) > 25) {
            missed.add("p99 " + l.percentile(99) + " > 25");
        }
        if (l.max() > 250) {
            missed.add("max " + l.max() + " > 250");
        }
        if (l.countBelow(0) > 0) {
            missed.add(l.countBelow(0) + " early");
        }
        return missed;
    }

    private void phases(BenchEnvironment env) throws Exception {
        int n = options.count(100_000, 5_000);
        for (DrainPhaseProbe.Phases p : DrainPhaseProbe.measure(env, n)) {
            table.add("drain cycle breakdown: " + p.variant() + ", batch " + p.batch(), "diagnostic",
                    String.format("%,.0f msg/s; per cycle: claim %.1f, send %.1f, broker acks %.1f, acknowledge %.1f ms (%,d msgs)",
                            p.rate(), p.claimMs(), p.sendMs(), p.brokerAckMs(), p.redisAckMs(), p.count()), "-");
        }
    }

    /** How long each precision step sends, and how much of its start is not recorded. */
    private long precisionStepMs() {
        return options.quick() ? 6_000 : 20_000;
    }

    private long precisionWarmupMs() {
        return options.quick() ? 2_000 : 3_000;
    }

    /** Measures precision at the --precision-rate, then through {@code searchRates}, and adds the first one's row. */
    private PrecisionScenario.Result precisionAtRate(Setting setting, int[] searchRates) throws Exception {
        PrecisionScenario.Result r = PrecisionScenario.measure(setting.env(), setting.namePrefix() + "precision", options.precisionRate(),
                searchRates, precisionStepMs(), precisionWarmupMs());
        PrecisionScenario.Step s = r.target();
        LatencyRecorder l = s.lateness();
        table.add(String.format("precision at %,d msg/s (1 s delay, %d s)", options.precisionRate(), precisionStepMs() / 1000) + setting.rowSuffix(),
                "p50 <= 5, p99 <= 25, max <= 250 ms, never early",
                String.format("%s%s, early %d; of which due->sent (bridge) p50 %d / p99 %d, sent->received (Kafka) p50 %d / p99 %d; "
                                + "%.0f inbound offset commits/s; %s (%s)", l.summary("ms"),
                        setting.beside(precisionStep == null ? null : precisionStep.lateness().summary("ms")), l.countBelow(0),
                        s.dueToSent().percentile(50), s.dueToSent().percentile(99), s.sentToReceived().percentile(50),
                        s.sentToReceived().percentile(99), s.commitsPerSecond(), r.warmup(), s.cpu()),
                precisionVerdict(s.sent(), s.arrived(), l));
        return r;
    }

    private void precision(BenchEnvironment env) throws Exception {
        int[] rates = options.quick() ? new int[] {5_000, 10_000} : new int[] {4_000, 6_000, 8_000, 10_000, 12_000, 15_000, 20_000, 25_000, 30_000};
        PrecisionScenario.Result r = precisionAtRate(Setting.inJvm(env), rates);
        precisionStep = r.target();
        StringBuilder steps = new StringBuilder();
        for (PrecisionScenario.Step step : r.search()) {
            steps.append(String.format("%s%,d/s: p99 %d ms%s", steps.length() == 0 ? "" : "; ", step.rate(),
                    step.lateness().percentile(99), step.complete() ? "" : " (incomplete)"));
        }
        table.add("highest steady rate with p99 <= 25 ms", "report",
                String.format("%,d msg/s (steps: %s)", r.highestRateWithinP99(), steps), "-");
    }

    /**
     * Hostile input: the clean run and the one with hostile records, one after the other, for a ratio of like with like.
     * 60 s each in a full run; --scale and --quick shorten the runs, never the rate or the share of hostile records.
     */
    private void hostile(BenchEnvironment env) throws Exception {
        HostileInputRows.add(table, HostileInputScenario.measure(env, options.count(60_000, 10_000), precisionWarmupMs(),
                () -> waitQuiet(env)));
    }

    /** A Sentinel failover with the master gone for good: how long ingest paused, how many messages were lost. 20 s of load. */
    private void failover(BenchEnvironment env) throws Exception {
        FailoverScenario.Result r = FailoverScenario.measure(env, options.quick() ? 15_000 : 20_000);
        table.add(String.format("failover: Sentinel, master SIGKILLed for good %,d ms into %,d msg/s (1 s delay)", FailoverScenario.KILL_AFTER_MS,
                        FailoverScenario.RATE), "lost = 0, ingest paused <= 10 s",
                String.format("ingest paused %,d ms (longest time without an inbound offset commit from the kill on); messages lost %,d of"
                                + " %,d (acknowledged, never delivered); duplicates %,d; replica promoted %,d ms after the kill",
                        r.pausedMs(), r.delivery().missing(), r.sent(), r.delivery().duplicates(), r.promotedMs()),
                ResultTable.verdict(r.met(), ""));
    }

    /**
     * A dead target beside a live one: B's lateness alone, while A's messages fall due to a missing topic, and while A's
     * backlog returns at its rate limit once the topic exists; A's drain rate, losses and time to its first delivery.
     * 30 s phases in a full run (10 s with --quick), after B alone unrecorded until the JIT has settled; --scale sets A's count,
     * never B's rate.
     */
    private void noisyNeighbour(BenchEnvironment env) throws Exception {
        long phaseMs = options.quick() ? 10_000 : 30_000;
        NoisyNeighbourScenario.Result r = NoisyNeighbourScenario.measure(env, options.count(200_000, 5_000), phaseMs, options.quick() ? 3_000 : 10_000);
        String b = String.format("B at %,d msg/s (1 s delay)", NoisyNeighbourScenario.B_RATE);
        String bound = String.format("p99 <= %.1fx B alone; every B message delivered", NoisyNeighbourScenario.P99_BOUND);
        String aDown = String.format("A's %,d messages falling due over %d s to a missing topic", r.aCount(), phaseMs / 1000);
        table.add(String.format("noisy neighbour: %s alone, %d s", b, phaseMs / 1000), "reference",
                r.bAlone().summary("ms") + " (" + r.cpuAlone() + "; " + r.warmup() + ")", "-");
        table.add("noisy neighbour: " + b + " while " + aDown, bound,
                r.bADown().summary("ms") + " (" + r.cpuADown() + ")" + bShortfall(r),
                ResultTable.verdict(r.bWithinBound(r.bADown()), String.format("%.2fx B alone", r.p99Ratio(r.bADown()))));
        table.add(String.format("noisy neighbour: %s while A's backlog drains (A's first delivery to its last)", b), bound,
                r.bADrains().summary("ms") + " (" + r.cpuADrains() + ")" + bShortfall(r),
                ResultTable.verdict(r.bWithinBound(r.bADrains()), String.format("%.2fx B alone", r.p99Ratio(r.bADrains()))));
        table.add(String.format("noisy neighbour: A's drain rate once its topic exists (from its arrivals; rate limit %,d msg/s)",
                        NoisyNeighbourScenario.A_RATE_LIMIT), "0.9-1.1x its rate limit",
                String.format("%,.0f msg/s (%,d messages in %,d ms)", r.aDrainRate(), r.aArrived(), r.aLast() - r.aFirst()),
                ResultTable.verdict(r.drainAtLimit(), String.format("%.2fx", r.aDrainRate() / NoisyNeighbourScenario.A_RATE_LIMIT)));
        table.add("noisy neighbour: A's messages lost (never delivered) and duplicates", "lost = 0",
                String.format("lost %,d of %,d; duplicates %,d", r.aDelivery().missing(), r.aCount(), r.aDelivery().duplicates()),
                ResultTable.verdict(r.aDelivery().complete(), ""));
        table.add("noisy neighbour: time from A's topic created to A's first delivery (a probe)", "report (probes back off up to"
                        + " bridge.parking.max-probe-ms)", String.format("%,d ms", r.firstDeliveryAfterTopicMs()), "-");
    }

    private static String bShortfall(NoisyNeighbourScenario.Result r) {
        return r.bArrived() >= r.bSent() ? "" : String.format("; only %,d of %,d B messages arrived", r.bArrived(), r.bSent());
    }

    private void cycle(BenchEnvironment env) throws Exception {
        long duration = options.quick() ? 6_000 : 15_000;
        table.add("dispatch cycle at a steady rate (Dispatcher's loop replayed with timers)", "diagnostic",
                SteadyCycleProbe.measure(env, options.precisionRate(), duration, false), "-");
        table.add("dispatch cycle at a steady rate, a bridge ingesting alongside", "diagnostic",
                SteadyCycleProbe.measure(env, options.precisionRate(), duration, true), "-");
        table.add("dispatch cycle at a steady rate, stored in bursts of 400 (one inbound poll batch)", "diagnostic",
                SteadyCycleProbe.measure(env, options.precisionRate(), duration, false, 400), "-");
    }

    private void peers(BenchEnvironment env) throws Exception {
        int n = options.count(50_000, 5_000);
        long delay = 2_000;
        JobResult redisson = RedissonReference.run(env, n, delay);
        JobResult naive = NaivePollingReference.run(env, n, delay);
        JobResult bridge = BridgeJob.run(env, n, delay);
        String job = String.format(" (%,d msgs, %d s delay)", n, delay / 1000);
        table.add("peer: " + redisson.system() + job, "reference", redisson.describe() + " (" + redisson.cpu() + ")", "-");
        table.add("naive design: " + naive.system() + job, "reference", naive.describe() + " (" + naive.cpu() + ")",
                String.format("bridge %.1fx its rate", bridge.rate() / naive.rate()));
        double ratio = bridge.rate() / redisson.rate();
        boolean lowerP99 = bridge.lateness().percentile(99) < redisson.lateness().percentile(99);
        String detail = String.format("%.1fx Redisson's rate; p99 %d vs %d ms", ratio, bridge.lateness().percentile(99),
                redisson.lateness().percentile(99));
        if (ratio < 5) {
            detail += String.format("; %.0f%% short of 5x", 100 * (1 - ratio / 5));
        }
        table.add("bridge on the same job" + job, ">= 5x Redisson's rate, lower p99 lateness",
                bridge.describe() + " (" + bridge.cpu() + ")", ResultTable.verdict(ratio >= 5 && lowerP99, detail));
    }

    private void pending(BenchEnvironment env) throws Exception {
        int small = 10_000;
        int large = options.count(1_000_000, 100_000);
        int samples = options.quick() ? 60 : 200;
        PendingScaleScenario.Result r = PendingScaleScenario.measure(env, small, large, samples);
        double ratio50 = r.claimLargeServerMicros().percentile(50) / (double) r.claimSmallServerMicros().percentile(50);
        double ratio99 = r.claimLargeServerMicros().percentile(99) / (double) r.claimSmallServerMicros().percentile(99);
        table.add(String.format("claim latency, batch of %d, %,d vs %,d pending", PendingScaleScenario.CLAIM_BATCH, large, small),
                "at 1M <= 2x at 10k",
                String.format("in Redis (INFO commandstats): %,d pending %s; %,d pending %s. At the client: %,d pending p50 %d / p99 %d us; %,d pending "
                                + "p50 %d / p99 %d us", small, r.claimSmallServerMicros().summary("us"), large, r.claimLargeServerMicros().summary("us"),
                        small, r.claimSmallMicros().percentile(50), r.claimSmallMicros().percentile(99), large,
                        r.claimLargeMicros().percentile(50), r.claimLargeMicros().percentile(99)),
                ResultTable.verdict(ratio50 <= 2 && ratio99 <= 2, String.format("in Redis p50 %.2fx, p99 %.2fx", ratio50, ratio99)));
        PendingScaleScenario.Memory kafka = r.kafkaIds();
        PendingScaleScenario.Memory shortIds = r.shortIds();
        double over = kafka.bytesPerMessage() - 300;
        double overPlain = kafka.bytesPerMessage() - kafka.plainBytesPerMessage();
        // a few bytes either way are measurement noise (used_memory before and after, divided by the count)
        String versusPlain = Math.abs(overPlain) <= 3 ? String.format("equal to the plain layout's floor for these ids (%.0f)", kafka.plainBytesPerMessage())
                : String.format("%.0f bytes %s the plain layout with these ids (%.0f)", Math.abs(overPlain), overPlain > 0 ? "above" : "below",
                        kafka.plainBytesPerMessage());
        table.add("Redis memory per pending message (100-byte payload)", "<= 300 bytes (plain ZSET+HASH ~266)",
                String.format("%.0f bytes at %,d pending (%.0f at %,d) with default Kafka ids (%d chars; plain ZSET+HASH, same ids: %.0f); "
                                + "%.0f with %d-char ids (plain: %.0f); one stored payload: %d bytes (%d with the short ids) for the 100-byte body",
                        kafka.bytesPerMessage(), large, r.bytesPerMessageSmall(), small, kafka.idLength(), kafka.plainBytesPerMessage(),
                        shortIds.bytesPerMessage(), shortIds.idLength(), shortIds.plainBytesPerMessage(), kafka.storedPayloadBytes(),
                        shortIds.storedPayloadBytes()),
                ResultTable.verdict(over <= 0, over <= 0 ? versusPlain : String.format("%.0f bytes over; %s", over, versusPlain)));
        if (!env.dedicatedRedis()) {
            table.note("memory was measured on a shared Redis (--redis): other clients' writes during the run distort it");
        }
    }

    private void groups(BenchEnvironment env) throws Exception {
        GroupsScenario.Result r = GroupsScenario.measure(env, options.count(100_000, 10_000));
        double extra = r.tenPerGroup() - r.ungrouped();
        table.add(String.format("Redis memory a group adds per pending message (x-group, 12-char names, %,d messages)", r.count()),
                "<= 40 bytes more than without a group",
                String.format("10 per group: +%.0f bytes (%.0f vs %.0f without a group); a group of its own each: +%.0f; all in one group: +%.0f",
                        extra, r.tenPerGroup(), r.ungrouped(), r.onePerGroup() - r.ungrouped(), r.oneGroup() - r.ungrouped()),
                ResultTable.verdict(extra <= 40, String.format("+%.0f bytes with 10 per group", extra)));
        table.add(String.format("time to cancel a group of %,d pending (DELETE /api/groups/{group})", GroupsScenario.CANCELLED_GROUP),
                "-", String.format("%d ms, %,d cancelled (dry run: %d ms)", r.cancelMs(), r.cancelled(), r.dryRunMs()), "measured");
    }

    /**
     * The herd runs as often as the capacities (--repeat) and its rate is the best run's, like theirs: it is a
     * capacity too, and noise on a shared machine only ever slows a run down. The probes' lateness is the same
     * run's (it is the time the herd took to drain, less 1 s); SLOWLOG and BUSY count over every run.
     */
    private void herd(BenchEnvironment env) throws Exception {
        int n = options.count(100_000, 5_000);
        Runs<ThunderingHerdScenario.Result> measured = repeated(env, i -> ThunderingHerdScenario.measure(env, "herd-" + i, n),
                ThunderingHerdScenario.Result::drainRate);
        List<ThunderingHerdScenario.Result> runs = measured.all();
        ThunderingHerdScenario.Result r = measured.best();
        String vsDrain = drainRate > 0 ? String.format("%.2fx the drain scenario's rate", r.drainRate() / drainRate) : "no drain run";
        table.add(String.format("herd: %,d due in one millisecond, drain rate", n), "full drain throughput",
                String.format("%,.0f msg/s (%s%s)", r.drainRate(), r.cpu(), runs(measured.rates())),
                drainRate > 0 ? ResultTable.verdict(r.drainRate() >= 0.9 * drainRate, vsDrain) : vsDrain);
        int slowCommands = runs.stream().mapToInt(ThunderingHerdScenario.Result::slowCommands).sum();
        ThunderingHerdScenario.Result slowest = runs.stream().max(Comparator.comparingLong(ThunderingHerdScenario.Result::slowestMicros))
                .orElseThrow();
        long longestPing = runs.stream().mapToLong(ThunderingHerdScenario.Result::longestPingMicros).max().orElse(0);
        table.add("herd: commands slower than 10 ms (SLOWLOG)", "none",
                String.format("%d in %d run(s) (slowest %.1f ms: %s); longest PING stall %.1f ms", slowCommands, runs.size(),
                        slowest.slowestMicros() / 1000.0, slowest.slowest(), longestPing / 1000.0),
                ResultTable.verdict(slowCommands == 0, ""));
        long busy = runs.stream().mapToLong(ThunderingHerdScenario.Result::busyReplies).sum();
        table.add("herd: BUSY replies", "none", busy + " in " + runs.size() + " run(s)", ResultTable.verdict(busy == 0, ""));
        LatencyRecorder probes = r.probeLateness();
        boolean probesOk = r.probesArrived() >= ThunderingHerdScenario.PROBES && probes.max() <= 1_000 && probes.countBelow(0) == 0;
        StringBuilder everyRun = new StringBuilder();
        for (ThunderingHerdScenario.Result run : runs) {
            everyRun.append(everyRun.length() == 0 ? "" : ", ").append(String.format("%,d", run.probeLateness().max()));
        }
        table.add("herd: " + ThunderingHerdScenario.PROBES + " probes due 1 s after the herd", "late by <= 1 s",
                probes.summary("ms") + " in the fastest run" + (r.probesArrived() < ThunderingHerdScenario.PROBES ? ", only " + r.probesArrived()
                        + " arrived" : "") + (runs.size() > 1 ? "; max per run " + everyRun + " ms" : ""),
                ResultTable.verdict(probesOk, ""));
    }

    private void scaleOut(BenchEnvironment env) throws Exception {
        int n = options.count(200_000, 5_000);
        ScaleOutScenario.Result oneRedis = ScaleOutScenario.measure(env, env.standaloneRedis(), "scale", n);
        scaleOutRows("scale-out: ingest, 1/2/3 instances, one Redis", "scale-out: drain, 1/2/3 instances, one Redis", oneRedis);
        try (BenchCluster cluster = new BenchCluster(options)) {
            ScaleOutScenario.Result onCluster = ScaleOutScenario.measure(env, cluster, "scale-cluster", n);
            String store = "scale-out on a " + BenchCluster.MASTERS + "-master Redis Cluster";
            scaleOutRows(store + ": ingest, 1/2/3 instances", store + ": drain, 1/2/3 instances", onCluster);
        }
    }

    private void scaleOutRows(String ingestRow, String drainRow, ScaleOutScenario.Result r) {
        String target = "report; every message exactly once";
        table.add(ingestRow, target, r.ingestRates(), r.ingestVerdict());
        table.add(drainRow, target, r.drainRates(), r.drainVerdict());
    }

    private void waitQuiet(BenchEnvironment env) throws InterruptedException {
        if (options.waitQuietSeconds() <= 0) {
            return;
        }
        long deadline = System.currentTimeMillis() + options.waitQuietSeconds() * 1000L;
        double others;
        do {
            others = CpuMeter.othersPercent(env.redisPid(), 3_000);
            System.out.printf("other processes use %.0f%% of a core%n", others);
        } while (others > 25 && System.currentTimeMillis() < deadline);
    }

    static String loadAverage() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            return f[0] + " " + f[1] + " " + f[2];
        } catch (Exception e) {
            return "?";
        }
    }

    private static String machineLine(String loadAtStart, String loadAtEnd, String redisVersion, String redisPriority) {
        String cpu = "?";
        String memory = "?";
        try {
            cpu = Files.readAllLines(Path.of("/proc/cpuinfo")).stream().filter(l -> l.startsWith("model name"))
                    .map(l -> l.substring(l.indexOf(':') + 1).trim()).findFirst().orElse("?");
            memory = Files.readAllLines(Path.of("/proc/meminfo")).stream().filter(l -> l.startsWith("MemTotal:"))
                    .map(l -> String.format("%.1f GiB", Long.parseLong(l.replaceAll("\\D", "")) / 1024.0 / 1024.0)).findFirst().orElse("?");
        } catch (Exception ignored) {
            // not Linux
        }
        return String.format("Machine: %d cores (nproc), %s, %s; load average %s at start, %s at end; Java %s (%s); Redis %s; "
                        + "Kafka %s; broker, Redis, bridge and load generator on this one machine; %s",
                Runtime.getRuntime().availableProcessors(), memory, cpu, loadAtStart, loadAtEnd, System.getProperty("java.version"),
                System.getProperty("java.vm.name"), redisVersion, org.apache.kafka.common.utils.AppInfoParser.getVersion(),
                redisPriority);
    }
}
