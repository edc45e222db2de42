package io.github.redisdelaybridge.benchmark;

import io.github.redisdelaybridge.testkit.BridgeInstance;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;

/**
 * Hostile input: valid messages (100 bytes, 1 s delay) at {@value #RATE} msg/s over {@value #PARTITIONS} partitions, once
 * alone (the clean run) and once with a hostile record ({@link HostileRecords}) after every {@value #VALID_PER_HOSTILE}th
 * valid one, on the same partitions under the same keys, so that a record the bridge takes long to decide holds up the
 * valid ones behind it and shows as their lateness. Each run has a fresh bridge, topics and key prefix; lateness is
 * recorded as in the precision scenario, from the due time (x-delay-due-at) to arrival, after a warm-up. Counts every
 * valid message on the target by its id, and every dead letter by its origin and x-dead-letter-reason.
 */
final class HostileInputScenario {

    static final int RATE = 5_000;
    static final int VALID_PER_HOSTILE = 100;
    static final int PARTITIONS = 6;
    static final long DELAY_MS = 1_000;
    /** The largest record sent (the inbound topic is created to take it, whatever the broker's default). */
    private static final int MAX_RECORD_BYTES = 16 * HostileRecords.MIB;
    /** After the last send: how long arrivals may stop growing, and how long the run waits at most, before it reports what came. */
    private static final long STALL_MS = 30_000;
    private static final long MAX_WAIT_MS = 120_000;
    private static final long LEAD_IN_MS = 10_000;

    /**
     * One run. {@code hostile} is null in the clean run; {@code kinds}/{@code sentByKind} say what was sent of each kind,
     * {@code acceptedHostile} how many hostile records reached their target instead of the dead-letter topic.
     */
    record Run(int validSent, Delivery delivery, LatencyRecorder lateness, long censoredMs, DeadLetterTally deadLetters,
               List<HostileRecords.Kind> kinds, Map<String, Long> sentByKind, long refusedByBroker, long acceptedHostile, String waited,
               String cpu) {

        /** The lateness percentiles, and when valid messages never arrived, that they are lower bounds. */
        String latenessSummary() {
            return lateness.summary("ms") + (censoredMs <= 0 ? "" : String.format(" (lower bounds: the %,d that never arrived count as %,d ms late,"
                    + " the least any of them can be)", delivery.missing(), censoredMs));
        }

        long validDeadLettered() {
            return deadLetters.count(DeadLetterTally.UNLABELLED);
        }

        long hostileSent() {
            return sentByKind.values().stream().mapToLong(Long::longValue).sum();
        }
    }

    record Result(Run clean, Run hostile, long durationMs) {
    }

    /** What to wait for before each run (--wait-quiet: until other processes calm down). */
    interface BeforeRun {
        void await() throws InterruptedException;
    }

    private HostileInputScenario() {
    }

    /**
     * The clean run, then the hostile one. The clean run sends for {@link #LEAD_IN_MS} first, unrecorded, so that the JIT compiler
     * has compiled the path of valid messages before either run records (without it, a clean run after the capacity warm-up
     * alone had p99 113 ms at 5,000 msg/s, where the precision scenario's settled steps have single digits).
     */
    static Result measure(BenchEnvironment env, long durationMs, long warmupMs, BeforeRun beforeEach) throws Exception {
        beforeEach.await();
        Run clean = run(env, "hostile-clean", LEAD_IN_MS, durationMs, warmupMs, false);
        beforeEach.await();
        Run hostile = run(env, "hostile-attack", 0, durationMs, warmupMs, true);
        return new Result(clean, hostile, durationMs);
    }

    private static Run run(BenchEnvironment env, String name, long leadInMs, long durationMs, long warmupMs, boolean withHostile)
            throws Exception {
        String in = env.topic(name, "inbound");
        String target = env.topic(name, "target");
        String hostileTarget = env.topic(name, "hostile-target");
        String deadLetters = env.topic(name, "dlq");
        env.createTopics(PARTITIONS, Map.of("max.message.bytes", Integer.toString(MAX_RECORD_BYTES)), in);
        env.createTopics(1, target, hostileTarget, deadLetters);
        Map<String, String> settings = env.bridgeSettings(name, in);
        HostileRecords records = new HostileRecords("kafka:" + hostileTarget,
                Long.parseLong(BenchEnvironment.setting(settings, "bridge.payload.max-bytes")));
        List<BridgeInstance> bridges = env.startBridges(settings, 1);
        try (KafkaProducer<byte[], byte[]> producer = BenchEnvironment.loadProducer(env.bootstrap, MAX_RECORD_BYTES)) {
            if (BenchEnvironment.awaitMillis(() -> env.groupStable(settings.get("bridge.kafka.group-id"),
                    BenchEnvironment.consumersPerInstance(settings), PARTITIONS), 60_000, 100) < 0) {
                throw new IllegalStateException(name + ": the bridge's consumers did not join their group within 60 s");
            }
            producer.partitionsFor(in);
            long recordFrom = System.currentTimeMillis() + leadInMs + warmupMs + DELAY_MS;
            try (ArrivalRecorder arrivals = new ArrivalRecorder(env.bootstrap, target, 1, dueAt -> dueAt >= recordFrom)) {
                CpuMeter cpu = env.cpu();
                int validSent = (int) (RATE * (leadInMs + durationMs) / 1000);
                Map<String, String> kindByOrigin = new ConcurrentHashMap<>();
                Map<String, Long> sentByKind = new ConcurrentHashMap<>();
                AtomicLong refused = new AtomicLong();
                List<Header> validHeaders = KafkaLoad.delayHeaders(DELAY_MS, target);
                int[] hostileSerial = {0};
                KafkaLoad.paced(RATE, validSent, i -> {
                    int partition = i % PARTITIONS;
                    producer.send(record(in, partition, env.payload(), validHeaders));
                    if (withHostile && i % VALID_PER_HOSTILE == VALID_PER_HOSTILE - 1) {
                        int serial = hostileSerial[0]++;
                        HostileRecords.Kind kind = records.kind(serial);
                        producer.send(record(in, serial % PARTITIONS, env.payload(), kind.headers().of(serial)), (sent, error) -> {
                            if (error != null) {
                                refused.incrementAndGet();
                                System.err.println(name + ": the broker refused a '" + kind.name() + "' record: " + error);
                            } else {
                                kindByOrigin.put("kafka:" + sent.topic() + "/" + sent.partition() + "@" + sent.offset(), kind.name());
                                sentByKind.merge(kind.name(), 1L, Long::sum);
                            }
                        });
                    }
                });
                producer.flush(); // every send's callback has run once flush returns
                long sendEnd = System.currentTimeMillis();
                Wait arrived = awaitArrivals(arrivals, validSent, sendEnd);
                String waited = arrived.description();
                long hostileSent = sentByKind.values().stream().mapToLong(Long::longValue).sum();
                if (withHostile) {
                    waited += "; " + awaitDeadLetters(env, deadLetters, hostileSent, sendEnd);
                }
                String used = cpu.stop();
                Delivery delivery = DeliveryCounter.count(env.bootstrap, target, validSent);
                // a message that never arrived is at least as late as the wait outlasted its due time: counted so, p99 cannot
                // look better for the messages a stuck partition never delivered
                long censoredMs = delivery.missing() == 0 ? 0 : arrived.endedMs() - (sendEnd + DELAY_MS);
                for (long i = 0; i < delivery.missing(); i++) {
                    arrivals.lateness.record(censoredMs);
                }
                DeadLetterTally tally = DeadLetterTally.read(env.bootstrap, deadLetters, kindByOrigin);
                Run run = new Run(validSent, delivery, arrivals.lateness, censoredMs, tally, withHostile ? records.kinds() : List.of(),
                        new LinkedHashMap<>(sentByKind), refused.get(), env.recordsIn(hostileTarget), waited, used);
                System.out.printf("%s: %s; valid %,d of %,d delivered%s, %,d dead-lettered; hostile sent %,d, dead-lettered %,d, "
                                + "delivered %,d; %s; %s%n", name, run.latenessSummary(), delivery.distinct(), validSent,
                        delivery.duplicates() > 0 ? " (" + delivery.duplicates() + " duplicates)" : "", run.validDeadLettered(), hostileSent,
                        tally.labelled(), run.acceptedHostile(), waited, used);
                return run;
            }
        } finally {
            stopWithin(bridges, 60_000);
            env.deleteKeys(env.prefix(name));
        }
    }

    private static ProducerRecord<byte[], byte[]> record(String topic, int partition, byte[] payload, List<Header> headers) {
        return new ProducerRecord<>(topic, partition, ("key-" + partition).getBytes(StandardCharsets.US_ASCII), payload, headers);
    }

    /** When a wait ended (epoch ms) and how. */
    private record Wait(long endedMs, String description) {
    }

    /**
     * Waits until every valid message arrived, or arrivals stopped growing for {@link #STALL_MS}, or {@link #MAX_WAIT_MS}
     * passed since the last send: a bridge stuck on a hostile record is reported, not waited for.
     */
    private static Wait awaitArrivals(ArrivalRecorder arrivals, long expected, long sendEnd) throws InterruptedException {
        long last = -1;
        long lastGrowth = System.currentTimeMillis();
        while (arrivals.arrivals() < expected) {
            long now = System.currentTimeMillis();
            if (arrivals.arrivals() > last) {
                last = arrivals.arrivals();
                lastGrowth = now;
            } else if (now - lastGrowth > STALL_MS) {
                return new Wait(now, String.format("gave up on the valid messages %.0f s after the last send: none arrived for %d s",
                        (now - sendEnd) / 1000.0, STALL_MS / 1000));
            }
            if (now - sendEnd > MAX_WAIT_MS) {
                return new Wait(now, String.format("gave up on the valid messages %d s after the last send", MAX_WAIT_MS / 1000));
            }
            Thread.sleep(20);
        }
        return new Wait(System.currentTimeMillis(),
                String.format("last valid arrival %.1f s after the last send", (arrivals.lastArrivalMs() - sendEnd) / 1000.0));
    }

    /** Waits for a dead letter of every hostile record, or until none came for 15 s. Says how long it waited. */
    private static String awaitDeadLetters(BenchEnvironment env, String topic, long expected, long sendEnd) throws InterruptedException {
        long reached = BenchEnvironment.awaitCount(() -> env.recordsIn(topic), expected, 15_000, 100);
        return reached < 0 ? "dead letters stopped coming short of the hostile count"
                : String.format("last dead letter by %.1f s after the last send", (reached - sendEnd) / 1000.0);
    }

    /** Stops the bridges, giving up after {@code timeoutMs}: a consumer thread stuck in a parser cannot be interrupted. */
    private static void stopWithin(List<BridgeInstance> bridges, long timeoutMs) throws InterruptedException {
        Thread stopping = new Thread(() -> BenchEnvironment.stopBridges(bridges), "hostile-bridge-stop");
        stopping.setDaemon(true);
        stopping.start();
        stopping.join(timeoutMs);
        if (stopping.isAlive()) {
            System.err.println("hostile: the bridge did not stop within " + timeoutMs / 1000 + " s; going on without it");
        }
    }
}
