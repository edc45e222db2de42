package io.github.redisdelaybridge.benchmark;

import io.github.redisdelaybridge.message.DueTime;
import io.github.redisdelaybridge.message.Envelope;
import io.github.redisdelaybridge.message.Target;
import io.github.redisdelaybridge.message.codec.EnvelopeCodec;
import io.github.redisdelaybridge.outbound.KafkaTargetPublisher;
import io.github.redisdelaybridge.outbound.client.KafkaProducerClient;
import io.github.redisdelaybridge.store.dispatch.ClaimedBatch;
import io.github.redisdelaybridge.store.dispatch.ClaimedMessage;
import io.github.redisdelaybridge.store.ingest.ScheduleRequest;
import io.github.redisdelaybridge.testkit.StoreFaces;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * Where a message's lateness comes from at a steady rate, on the dispatch side. A feeder stores messages
 * through IngestStore at {@code rate}/s, each due 200 ms later; a loop replays the Dispatcher's cycle (claim,
 * publish, wait for the broker's acks, acknowledge, then sleep until the next due time the claim reported)
 * with timers. Reports per message: claimed - due (Redis clock at claim), sent - due; per cycle: each phase,
 * and the sleep overshoot (woke up later than planned). Benchmark-side only.
 */
final class SteadyCycleProbe {

    private SteadyCycleProbe() {
    }

    /**
     * With {@code inboundLoad}, a bridge instance runs next to the probe and ingests the same rate from Kafka
     * (messages due in a minute, so it never delivers during the probe): the CPU and Redis work of the inbound
     * path, without its dispatcher having anything to do.
     */
    static String measure(BenchEnvironment env, int rate, long durationMs, boolean inboundLoad) throws Exception {
        return measure(env, rate, durationMs, inboundLoad, 1);
    }

    /**
     * With {@code burst} > 1 the feeder stores that many messages in one schedule call every burst/rate
     * seconds (as the inbound route stores one Kafka poll batch), so they share one due millisecond.
     */
    static String measure(BenchEnvironment env, int rate, long durationMs, boolean inboundLoad, int burst) throws Exception {
        String name = "cycle-" + rate + (inboundLoad ? "-loaded" : "") + (burst > 1 ? "-burst" + burst : "");
        String in = env.topic(name, "inbound");
        List<io.github.redisdelaybridge.testkit.BridgeInstance> bridges = List.of();
        Thread publisherThread = null;
        AtomicBoolean publishing = new AtomicBoolean(true);
        if (inboundLoad) {
            env.createTopics(6, in);
            bridges = env.startBridges(env.bridgeSettings(name + "-bridge", in), 1);
            publisherThread = new Thread(() -> {
                while (publishing.get()) {
                    KafkaLoad.publishSteady(env.producer(), in, rate, 1_000, env.payload(), KafkaLoad.delayHeaders(60_000, in + ".unused"));
                }
            }, "cycle-inbound-load");
            publisherThread.start();
        }
        String target = env.topic(name, "target");
        env.createTopics(1, target);
        LatencyRecorder claimLate = new LatencyRecorder();
        LatencyRecorder sendLate = new LatencyRecorder();
        LatencyRecorder claimUs = new LatencyRecorder();
        LatencyRecorder brokerAckUs = new LatencyRecorder();
        LatencyRecorder acknowledgeUs = new LatencyRecorder();
        LatencyRecorder sleepOvershootUs = new LatencyRecorder();
        LatencyRecorder perCycle = new LatencyRecorder();
        try (BenchEnvironment.StoreHandle handle = env.store(env.prefix(name), 1);
             KafkaProducerClient kafka = new KafkaProducerClient(env.bootstrap, "bench-cycle-" + name, Map.of("max.request.size", 16 * 1024 * 1024))) {
            StoreFaces store = handle.store();
            KafkaTargetPublisher publisher = new KafkaTargetPublisher(kafka);
            kafka.publish(target, null, List.of(), new byte[1]).get(30, TimeUnit.SECONDS);
            AtomicBoolean feeding = new AtomicBoolean(true);
            Thread feeder = new Thread(() -> {
                long start = System.nanoTime();
                double interval = 1e9 * burst / rate;
                for (int i = 0; feeding.get(); i++) {
                    long wait = start + (long) (i * interval) - System.nanoTime();
                    if (wait > 200_000) {
                        LockSupport.parkNanos(wait);
                    }
                    List<ScheduleRequest> requests = new ArrayList<>(burst);
                    for (int j = 0; j < burst; j++) {
                        long offset = (long) i * burst + j;
                        String id = "cycle.inbound-0-" + offset;
                        requests.add(new ScheduleRequest(id, new DueTime.AfterDelay(200), StoreLoader.envelope(id, offset, target, env.payload())));
                    }
                    store.ingest().schedule(requests);
                }
            }, "cycle-feeder");
            feeder.start();
            long end = System.currentTimeMillis() + durationMs;
            long measureFrom = System.currentTimeMillis() + 1_000;
            for (long cycle = 0; System.currentTimeMillis() < end; cycle++) {
                long t0 = System.nanoTime();
                ClaimedBatch batch = store.dispatch().claim(0, 500, 60_000).get(30, TimeUnit.SECONDS);
                long t1 = System.nanoTime();
                boolean measured = System.currentTimeMillis() > measureFrom;
                if (batch.messages().isEmpty()) {
                    long sleepMs = batch.nextDue() < 0 ? 100 : Math.max(0, batch.nextDue() - batch.redisNow());
                    if (sleepMs > 0) {
                        long before = System.nanoTime();
                        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(Math.min(sleepMs, 100)));
                        if (measured) {
                            sleepOvershootUs.record((System.nanoTime() - before) / 1_000 - Math.min(sleepMs, 100) * 1_000);
                        }
                    }
                    continue;
                }
                List<CompletableFuture<Void>> publishes = new ArrayList<>();
                for (ClaimedMessage message : batch.messages()) {
                    Envelope envelope = EnvelopeCodec.decode(message.messageId(), message.encodedEnvelope());
                    publishes.add(publisher.publish(envelope, Target.parse(envelope.target()), message.dueAt()));
                    if (measured) {
                        claimLate.record(batch.redisNow() - message.dueAt());
                        sendLate.record(System.currentTimeMillis() - message.dueAt());
                    }
                }
                long t2 = System.nanoTime();
                for (CompletableFuture<Void> publish : publishes) {
                    publish.get(30, TimeUnit.SECONDS);
                }
                long t3 = System.nanoTime();
                store.dispatch().acknowledge(0, batch.messages()).get(30, TimeUnit.SECONDS);
                long t4 = System.nanoTime();
                if (measured) {
                    claimUs.record((t1 - t0) / 1_000);
                    brokerAckUs.record((t3 - t2) / 1_000);
                    acknowledgeUs.record((t4 - t3) / 1_000);
                    perCycle.record(batch.messages().size());
                }
            }
            feeding.set(false);
            feeder.join();
            String report = String.format("%sat %,d/s: claimed-due %s; sent-due %s; per delivering cycle (%d cycles, p50 %d msgs): "
                            + "claim %s, broker acks %s, acknowledge %s; sleep overshoot %s",
                    (inboundLoad ? "with a bridge ingesting the same rate alongside, " : "alone, ")
                            + (burst > 1 ? "stored in bursts of " + burst + ", " : "stored evenly, "), rate, claimLate.summary("ms"),
                    sendLate.summary("ms"), perCycle.count(), perCycle.percentile(50),
                    claimUs.summary("us"), brokerAckUs.summary("us"), acknowledgeUs.summary("us"), sleepOvershootUs.summary("us"));
            System.out.println("cycle probe " + report);
            return report;
        } finally {
            publishing.set(false);
            if (publisherThread != null) {
                publisherThread.join();
            }
            BenchEnvironment.stopBridges(bridges);
            env.deleteKeys(env.prefix(name));
            env.deleteKeys(env.prefix(name + "-bridge"));
        }
    }
}
