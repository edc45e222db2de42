package io.github.redisdelaybridge.benchmark;

import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.impl.DefaultCamelContext;

/**
 * The ceiling: a plain Camel Kafka-to-Kafka pass-through route on the same broker, shaped like the
 * bridge's inbound route (batching consumer, 500 records a poll; the batch body is sent as one list),
 * with no delay and no Redis, fed by the same load generator as ingest. Its rate is measured like ingest:
 * first publish until the last record is on the output topic.
 */
final class PassThroughCeiling {

    private PassThroughCeiling() {
    }

    static double measure(BenchEnvironment env, String name, int count) throws Exception {
        String in = env.topic(name, "inbound");
        String out = env.topic(name, "target");
        env.createTopics(6, in, out);
        String bytes = "org.apache.kafka.common.serialization.ByteArray";
        CamelContext camel = new DefaultCamelContext();
        camel.addRoutes(new RouteBuilder() {
            @Override
            public void configure() {
                from("kafka:" + in + "?brokers=" + env.bootstrap + "&groupId=" + env.prefix(name)
                        + "&autoOffsetReset=earliest&batching=true&maxPollRecords=500&pollTimeoutMs=500"
                        + "&keyDeserializer=" + bytes + "Deserializer&valueDeserializer=" + bytes + "Deserializer")
                        .routeId("pass-through-ceiling")
                        .to("kafka:" + out + "?brokers=" + env.bootstrap + "&lingerMs=1&producerBatchSize=262144"
                                + "&keySerializer=" + bytes + "Serializer&valueSerializer=" + bytes + "Serializer");
            }
        });
        camel.start();
        try {
            env.load().publish(in, 1, 60_000, out).await();
            if (BenchEnvironment.awaitMillis(() -> env.recordsIn(out) >= 1, 60_000, 20) < 0) {
                throw new IllegalStateException("the pass-through route did not pass its warm-up record");
            }
            CpuMeter cpu = env.cpu();
            LoadGenerator.Publishing publishing = env.load().publish(in, count, 60_000, out);
            long done = BenchEnvironment.awaitMillis(() -> env.recordsIn(out) >= count + 1, 300_000, 10);
            if (done < 0) {
                throw new IllegalStateException("pass-through: only " + (env.recordsIn(out) - 1) + " of " + count + " arrived");
            }
            long start = publishing.await().startedMs();
            double rate = count * 1000.0 / (done - start);
            System.out.printf(name + ": %d messages in %d ms = %.0f msg/s, %s%n", count, done - start, rate, cpu.stop());
            return rate;
        } finally {
            camel.stop();
        }
    }
}
