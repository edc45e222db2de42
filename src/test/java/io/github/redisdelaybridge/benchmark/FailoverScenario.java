package io.github.redisdelaybridge.benchmark;

import io.github.redisdelaybridge.testkit.BridgeInstance;
import io.github.redisdelaybridge.testkit.DeliveryReport;
import io.github.redisdelaybridge.testkit.FailoverSettings;
import io.github.redisdelaybridge.testkit.KafkaTestClient;
import io.github.redisdelaybridge.testkit.KafkaTestClient.Received;
import io.github.redisdelaybridge.testkit.RedisSentinelGroup;
import io.github.redisdelaybridge.testkit.TargetCollector;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;

/**
 * Failover: one bridge (wait-replicas=auto, the default) on a Sentinel group of its own (a master, a replica, three
 * sentinels), messages sent at {@value #RATE} msg/s with a 1 s delay; {@value #KILL_AFTER_MS} ms in, the master is killed
 * with SIGKILL and never comes back, so the replica Sentinel promotes has no replica of its own. Measures how long ingest
 * paused (the longest time without an inbound offset commit while messages kept coming, polled every
 * {@value #COMMIT_POLL_MS} ms) and how many messages were lost (sent, and so acknowledged once every offset was committed,
 * but never delivered). Bounds: none lost, a pause of at most 10 s.
 */
final class FailoverScenario {

    static final int RATE = 1_000;
    static final long KILL_AFTER_MS = 8_000;
    static final long PAUSE_BOUND_MS = 10_000;
    private static final long DELAY_MS = 1_000;
    private static final long COMMIT_POLL_MS = 20;

    /**
     * @param pausedMs   the longest time without an inbound offset commit, from the kill on
     * @param promotedMs from the kill until the sentinels named the replica master
     */
    record Result(int sent, DeliveryReport delivery, long pausedMs, long promotedMs) {

        boolean met() {
            return delivery.missing() == 0 && pausedMs <= PAUSE_BOUND_MS;
        }
    }

    private FailoverScenario() {
    }

    static Result measure(BenchEnvironment env, long durationMs) throws Exception {
        String name = "failover";
        String in = env.topic(name, "inbound");
        String target = env.topic(name, "target");
        env.createTopics(6, in, target);
        try (RedisSentinelGroup redis = new RedisSentinelGroup(env.prefix(name));
             KafkaTestClient kafka = new KafkaTestClient(env.bootstrap);
             TargetCollector collector = new TargetCollector(kafka, target)) {
            Map<String, String> settings = env.bridgeSettings(name, in);
            settings.put("bridge.redis.uri", redis.uri());
            FailoverSettings.apply(settings, "auto");
            String group = settings.get("bridge.kafka.group-id");
            List<BridgeInstance> bridges = env.startBridges(settings, 1);
            try {
                CommitWatch commits = new CommitWatch(env, group, in);
                commits.start();
                int total = (int) (RATE * durationMs / 1000);
                long[] killedAt = {0};
                CompletableFuture<Long> promotedAt = new CompletableFuture<>();
                long start = System.currentTimeMillis();
                KafkaLoad.paced(RATE, total, i -> {
                    if (killedAt[0] == 0 && System.currentTimeMillis() - start >= KILL_AFTER_MS) {
                        redis.master().crash();
                        killedAt[0] = System.currentTimeMillis();
                        CompletableFuture.runAsync(() -> {
                            try {
                                redis.awaitReplicaPromoted(Duration.ofSeconds(30));
                                promotedAt.complete(System.currentTimeMillis());
                            } catch (Exception | Error e) {
                                promotedAt.completeExceptionally(e);
                            }
                        });
                    }
                    env.producer().send(new ProducerRecord<byte[], byte[]>(in, null, (byte[]) null, env.payload(), headers(target, "f" + i)));
                });
                env.producer().flush();
                long promotedMs = promotedAt.get(30, TimeUnit.SECONDS) - killedAt[0];
                long sent = env.recordsIn(in);
                if (BenchEnvironment.awaitCount(() -> env.committed(group, in), sent, 30_000, 100) < 0) {
                    throw new IllegalStateException("failover: only " + env.committed(group, in) + " of " + sent + " offsets committed");
                }
                long allCommitted = System.currentTimeMillis();
                commits.stop();
                collector.awaitDistinct(total, Received::messageId, Duration.ofSeconds(30));
                Thread.sleep(1_000);
                List<String> ids = new ArrayList<>();
                for (int i = 0; i < total; i++) {
                    ids.add("f" + i);
                }
                DeliveryReport delivery = DeliveryReport.of("failover", ids, collector.received(), target);
                Result result = new Result(total, delivery, commits.longestGapMs(killedAt[0], allCommitted), promotedMs);
                System.out.printf("failover: master killed %,d ms in, replica promoted %,d ms later; ingest paused %,d ms; %s%n",
                        KILL_AFTER_MS, promotedMs, result.pausedMs(), delivery);
                return result;
            } finally {
                BenchEnvironment.stopBridges(bridges);
            }
        }
    }

    private static List<Header> headers(String target, String id) {
        return List.of(new RecordHeader("x-delay", Long.toString(DELAY_MS).getBytes(StandardCharsets.UTF_8)),
                new RecordHeader("x-target", ("kafka:" + target).getBytes(StandardCharsets.UTF_8)),
                new RecordHeader("x-message-id", id.getBytes(StandardCharsets.UTF_8)));
    }

    /** Polls the inbound group's committed offsets and notes when they advance. */
    private static final class CommitWatch {

        private final BenchEnvironment env;
        private final String group;
        private final String topic;
        private final List<Long> advances = new ArrayList<>();
        private volatile boolean running = true;
        private Thread thread;

        CommitWatch(BenchEnvironment env, String group, String topic) {
            this.env = env;
            this.group = group;
            this.topic = topic;
        }

        void start() {
            thread = new Thread(() -> {
                long last = -1;
                while (running) {
                    long committed = env.committed(group, topic);
                    if (committed != last) {
                        synchronized (advances) {
                            advances.add(System.currentTimeMillis());
                        }
                        last = committed;
                    }
                    try {
                        Thread.sleep(COMMIT_POLL_MS);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }, "failover-commit-watch");
            thread.setDaemon(true);
            thread.start();
        }

        void stop() throws InterruptedException {
            running = false;
            thread.join(5_000);
        }

        /** The longest stretch within [from, to] without an advance (a stretch open at {@code from} counts from there). */
        long longestGapMs(long from, long to) {
            synchronized (advances) {
                long longest = 0;
                long previous = from;
                for (long at : advances) {
                    if (at > from && at <= to) {
                        longest = Math.max(longest, at - previous);
                        previous = at;
                    }
                }
                return Math.max(longest, to - previous);
            }
        }
    }
}
