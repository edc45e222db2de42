package io.github.redisdelaybridge.benchmark;

import io.github.redisdelaybridge.message.DueTime;
import io.github.redisdelaybridge.testkit.BridgeInstance;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;

/**
 * Noisy neighbour: does a dead target cost the others anything, and does its backlog come back at its own pace? One bridge,
 * two Kafka targets. B gets {@value #B_RATE} msg/s with a {@value #DELAY_MS} ms delay from start to end. A's messages are
 * stored beforehand (through the bridge's own schedule script) and fall due evenly over one phase while A's topic does not
 * exist, so every publish to A fails (retriably) and A is parked; then A's topic is created, a probe gets through, and A's
 * parked backlog returns at its pattern's rate limit ({@value #A_RATE_LIMIT} msg/s: a target with a rate limit returns at it).
 *
 * <p>B runs unrecorded until the JIT compiler has settled; then B's lateness is recorded for every arrival and judged by due
 * time over three windows: B alone (a phase as long as A's), B while A's messages fall due and are parked, and B while A's
 * backlog drains (A's first delivery to its last). Bounds: B's p99 in the last two within {@value #P99_BOUND}x its p99 alone; none of A's messages lost; A drains at its rate
 * limit (0.9-1.1x).
 */
final class NoisyNeighbourScenario {

    static final int B_RATE = 2_000;
    static final int A_RATE_LIMIT = 5_000;
    static final double P99_BOUND = 1.5;
    private static final long DELAY_MS = 1_000;
    /** Time given to timing A's messages (about 25-40 ms of Redis per 10,000 of them) before B's recorded messages are sent. */
    private static final long RETIME_ALLOWANCE_MS = 2_000;
    /** Longest wait for A's next arrival: covers the probe's backoff (up to bridge.parking.max-probe-ms) with room to spare. */
    private static final long A_STALL_MS = 60_000;

    /**
     * @param topicCreatedAt     when A's topic was created (epoch ms)
     * @param aFirst, aLast      A's first and last arrival (epoch ms)
     * @param warmup             how B was warmed up before the phases ({@link JitWarmup.Settled#describe})
     */
    record Result(int aCount, long phaseMs, LatencyRecorder bAlone, LatencyRecorder bADown, LatencyRecorder bADrains, int bSent,
                  long bArrived, long topicCreatedAt, long aFirst, long aLast, long aArrived, Delivery aDelivery, String cpuAlone,
                  String cpuADown, String cpuADrains, String warmup) {

        long firstDeliveryAfterTopicMs() {
            return aFirst - topicCreatedAt;
        }

        /** A's messages after the probe over the time from the probe's arrival to the last one's. */
        double aDrainRate() {
            return aLast > aFirst ? (aArrived - 1) * 1000.0 / (aLast - aFirst) : 0;
        }

        double p99Ratio(LatencyRecorder phase) {
            return phase.percentile(99) / (double) Math.max(1, bAlone.percentile(99));
        }

        boolean bWithinBound(LatencyRecorder phase) {
            return bArrived >= bSent && phase.count() > 0 && p99Ratio(phase) <= P99_BOUND;
        }

        boolean drainAtLimit() {
            return aDrainRate() >= 0.9 * A_RATE_LIMIT && aDrainRate() <= 1.1 * A_RATE_LIMIT;
        }
    }

    private NoisyNeighbourScenario() {
    }

    /**
     * @param aCount   A's messages, due evenly over {@code phaseMs}
     * @param phaseMs  how long B runs alone (recorded), and how long A's messages fall due
     * @param warmupStepMs B runs unrecorded in steps of this long until the JIT compiler has settled ({@link JitWarmup})
     */
    static Result measure(BenchEnvironment env, int aCount, long phaseMs, long warmupStepMs) throws Exception {
        String name = "noisy-neighbour";
        String in = env.topic(name, "inbound");
        String targetA = env.topic(name, "a"); // created only when A comes back
        String targetB = env.topic(name, "b");
        env.createTopics(6, in);
        env.createTopics(1, targetB, env.topic(name, "dlq"));
        Map<String, String> settings = env.bridgeSettings(name, in);
        settings.put("bridge.targets.limits", "a");
        settings.put("bridge.targets.a.pattern", "kafka:" + targetA);
        settings.put("bridge.targets.a.rate-per-second", Integer.toString(A_RATE_LIMIT));
        List<BridgeInstance> bridges = env.startBridges(settings, 1);
        AtomicBoolean sendingB = new AtomicBoolean(true);
        Thread loadB = null;
        try (BenchEnvironment.StoreHandle store = env.store(env.prefix(name));
             ArrivalRecorder arrivalsB = new ArrivalRecorder(env.bootstrap, targetB, 1, dueAt -> true, new LatenessTimeline())) {
            // A stored far ahead, spaced as they will fall due, then moved to their phase once it is timed: the load is not timed
            long far = System.currentTimeMillis() + StoreLoader.FAR_FUTURE_MS;
            double spacingMs = phaseMs / (double) aCount;
            StoreLoader.loadTo(store.store(), i -> "a-" + i, 0, aCount, i -> new DueTime.At(far + (long) (i * spacingMs)), "kafka:" + targetA,
                    env.payload());
            int[] sentB = {0};
            loadB = new Thread(() -> {
                List<Header> headers = KafkaLoad.delayHeaders(DELAY_MS, targetB);
                sentB[0] = KafkaLoad.pacedWhile(B_RATE, i -> sendingB.get(), i -> env.producer().send(
                        new ProducerRecord<byte[], byte[]>(in, null, (byte[]) null, env.payload(), headers)));
                env.producer().flush();
            }, "noisy-neighbour-b");
            loadB.start();
            // B unrecorded until the JIT compiler has settled: a baseline measured while it compiles would be late for that
            // reason alone, and would make the bound easy to meet
            JitWarmup.Settled warm = JitWarmup.untilSettled("noisy-neighbour B", warmupStepMs, () -> {
                Thread.sleep(warmupStepMs);
                return arrivalsB.arrivals() + " B messages arrived so far";
            });
            // B's messages sent from the re-timing of A's on: those due meanwhile are not recorded
            long aloneFrom = System.currentTimeMillis() + RETIME_ALLOWANCE_MS + DELAY_MS;
            long downFrom = aloneFrom + phaseMs;
            long downTo = downFrom + phaseMs;
            long retimeStart = System.currentTimeMillis();
            StoreLoader.moveEarlier(env.redis(), store.keys(), far, far - downFrom);
            System.out.printf("noisy neighbour: %s; A's %,d messages timed to fall due from %,d ms on, in %,d ms%n", warm.describe(), aCount,
                    downFrom - System.currentTimeMillis(), System.currentTimeMillis() - retimeStart);

            sleepUntil(aloneFrom);
            PhaseMeter phase = new PhaseMeter(env);
            sleepUntil(downFrom);
            String cpuAlone = phase.stop();
            phase = new PhaseMeter(env);
            sleepUntil(downTo);
            String cpuADown = phase.stop();

            env.createTopics(1, targetA);
            long topicCreatedAt = System.currentTimeMillis();
            try (ArrivalRecorder arrivalsA = new ArrivalRecorder(env.bootstrap, targetA, 1, dueAt -> false)) {
                BenchEnvironment.awaitMillis(() -> arrivalsA.arrivals() > 0, A_STALL_MS, 5);
                phase = new PhaseMeter(env);
                boolean drained = BenchEnvironment.awaitCount(arrivalsA::arrivals, aCount, A_STALL_MS, 10) >= 0;
                String cpuADrains = phase.stop();
                sendingB.set(false);
                loadB.join();
                arrivalsB.await(sentB[0], DELAY_MS + 30_000);
                Delivery delivery = DeliveryCounter.count(env.bootstrap, targetA, aCount);
                LatenessTimeline b = arrivalsB.timeline();
                Result result = new Result(aCount, phaseMs, b.window(aloneFrom, downFrom), b.window(downFrom, downTo),
                        b.window(arrivalsA.firstArrivalMs(), arrivalsA.lastArrivalMs()), sentB[0], arrivalsB.arrivals(), topicCreatedAt,
                        arrivalsA.firstArrivalMs(), arrivalsA.lastArrivalMs(), arrivalsA.arrivals(), delivery, cpuAlone, cpuADown, cpuADrains,
                        warm.describe());
                System.out.printf("noisy neighbour: B alone %s (%s); B while A is down %s (%s); B while A drains %s (%s); A: %,d lost, %,d duplicates, first delivery"
                                + " %,d ms after its topic exists, drained at %,.0f msg/s%s%n", result.bAlone().summary("ms"), cpuAlone,
                        result.bADown().summary("ms"), cpuADown, result.bADrains().summary("ms"), cpuADrains, delivery.missing(), delivery.duplicates(),
                        result.firstDeliveryAfterTopicMs(), result.aDrainRate(), drained ? "" : " (stalled: not every message arrived)");
                System.out.printf("noisy neighbour: B alone, %s%nnoisy neighbour: B while A is down, %s%nnoisy neighbour: B while A drains, %s%n",
                        b.p99BySecond(aloneFrom, downFrom), b.p99BySecond(downFrom, downTo),
                        b.p99BySecond(arrivalsA.firstArrivalMs(), arrivalsA.lastArrivalMs()));
                return result;
            }
        } finally {
            sendingB.set(false);
            if (loadB != null) {
                loadB.join();
            }
            BenchEnvironment.stopBridges(bridges);
            env.deleteKeys(env.prefix(name));
        }
    }

    /** What one phase cost the machine: CPU by process, and the script calls Redis ran (each of the bridge's Redis operations is one). */
    private static final class PhaseMeter {

        private final BenchEnvironment env;
        private final CpuMeter cpu;
        private final BenchEnvironment.ScriptCalls scriptsBefore;
        private final long startMs = System.currentTimeMillis();

        PhaseMeter(BenchEnvironment env) {
            this.env = env;
            this.cpu = env.cpu();
            this.scriptsBefore = env.scriptCalls();
        }

        String stop() {
            return cpu.stop() + "; " + env.scriptCalls().since(scriptsBefore, System.currentTimeMillis() - startMs);
        }
    }

    private static void sleepUntil(long epochMs) throws InterruptedException {
        Thread.sleep(Math.max(0, epochMs - System.currentTimeMillis()));
    }
}
