package io.github.redisdelaybridge.benchmark;

import io.github.redisdelaybridge.message.DueTime;
import io.github.redisdelaybridge.message.Envelope;
import io.github.redisdelaybridge.message.Target;
import io.github.redisdelaybridge.message.codec.EnvelopeCodec;
import io.github.redisdelaybridge.outbound.KafkaTargetPublisher;
import io.github.redisdelaybridge.outbound.client.KafkaProducerClient;
import io.github.redisdelaybridge.store.dispatch.ClaimedBatch;
import io.github.redisdelaybridge.store.dispatch.ClaimedMessage;
import io.github.redisdelaybridge.testkit.StoreFaces;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Where a drain cycle's time goes. Replays the Dispatcher's cycle with the bridge's own parts (DispatchStore
 * claim and acknowledge, EnvelopeCodec, KafkaTargetPublisher on a KafkaProducerClient configured as the bridge's)
 * with a timer around each phase: claim round trip, publishing the batch, waiting for the broker's acks,
 * acknowledge round trip. Then the same parts in a pipelined cycle (the next claim is in flight while the
 * broker acks the current batch; the acknowledge is not waited for before the next publish) to measure
 * what overlapping the phases would gain. Benchmark-side only: production code is not changed.
 */
final class DrainPhaseProbe {

    record Phases(String variant, int batch, int count, long cycles, double claimMs, double sendMs, double brokerAckMs,
                  double redisAckMs, double rate) {

        String describe() {
            return String.format("%s, batch %d: %,.0f msg/s; per cycle: claim %.1f ms, send %.1f ms, broker acks %.1f ms, acknowledge %.1f ms",
                    variant, batch, rate, claimMs, sendMs, brokerAckMs, redisAckMs);
        }
    }

    private DrainPhaseProbe() {
    }

    static List<Phases> measure(BenchEnvironment env, int count) throws Exception {
        List<Phases> results = new ArrayList<>();
        results.add(run(env, "as Dispatcher (serial)", count, 500, false));
        results.add(run(env, "pipelined prototype", count, 500, true));
        results.add(run(env, "as Dispatcher (serial)", count, 2_000, false));
        results.add(run(env, "pipelined prototype", count, 2_000, true));
        return results;
    }

    private static Phases run(BenchEnvironment env, String variant, int count, int batch, boolean pipelined) throws Exception {
        String name = "phases-" + batch + (pipelined ? "-p" : "-s");
        String target = env.topic(name, "target");
        env.createTopics(6, target);
        try (BenchEnvironment.StoreHandle handle = env.store(env.prefix(name), 1);
             KafkaProducerClient kafka = new KafkaProducerClient(env.bootstrap, "bench-probe-" + name, Map.of("max.request.size", 16 * 1024 * 1024))) {
            StoreFaces store = handle.store();
            KafkaTargetPublisher publisher = new KafkaTargetPublisher(kafka);
            StoreLoader.load(store, "probe.inbound-0-", 0, count, new DueTime.At(0), target, env.payload());
            // warm the producer's metadata for the target
            kafka.publish(target, null, List.of(), new byte[1]).get(30, TimeUnit.SECONDS);
            long claimNs = 0;
            long sendNs = 0;
            long brokerNs = 0;
            long redisAckNs = 0;
            long cycles = 0;
            int done = 0;
            long start = System.nanoTime();
            CompletableFuture<ClaimedBatch> nextClaim = pipelined ? store.dispatch().claim(0, batch, 60_000) : null;
            CompletableFuture<Long> previousAck = CompletableFuture.completedFuture(0L);
            while (done < count) {
                long t0 = System.nanoTime();
                ClaimedBatch claimed = (pipelined ? nextClaim : store.dispatch().claim(0, batch, 60_000)).get(30, TimeUnit.SECONDS);
                long t1 = System.nanoTime();
                List<ClaimedMessage> messages = claimed.messages();
                if (messages.isEmpty()) {
                    throw new IllegalStateException("probe: nothing to claim after " + done);
                }
                List<CompletableFuture<Void>> publishes = new ArrayList<>(messages.size());
                for (ClaimedMessage message : messages) {
                    Envelope envelope = EnvelopeCodec.decode(message.messageId(), message.encodedEnvelope());
                    publishes.add(publisher.publish(envelope, Target.parse(envelope.target()), message.dueAt()));
                }
                long t2 = System.nanoTime();
                if (pipelined && done + messages.size() < count) {
                    nextClaim = store.dispatch().claim(0, batch, 60_000);
                }
                for (CompletableFuture<Void> publish : publishes) {
                    publish.get(30, TimeUnit.SECONDS);
                }
                long t3 = System.nanoTime();
                if (pipelined) {
                    previousAck.get(30, TimeUnit.SECONDS);
                    previousAck = store.dispatch().acknowledge(0, messages);
                } else {
                    store.dispatch().acknowledge(0, messages).get(30, TimeUnit.SECONDS);
                }
                long t4 = System.nanoTime();
                claimNs += t1 - t0;
                sendNs += t2 - t1;
                brokerNs += t3 - t2;
                redisAckNs += t4 - t3;
                cycles++;
                done += messages.size();
            }
            previousAck.get(30, TimeUnit.SECONDS);
            double seconds = (System.nanoTime() - start) / 1e9;
            Phases phases = new Phases(variant, batch, count, cycles, claimNs / 1e6 / cycles, sendNs / 1e6 / cycles,
                    brokerNs / 1e6 / cycles, redisAckNs / 1e6 / cycles, count / seconds);
            System.out.println("phases: " + phases.describe());
            return phases;
        } finally {
            env.deleteKeys(env.prefix(name));
        }
    }
}
