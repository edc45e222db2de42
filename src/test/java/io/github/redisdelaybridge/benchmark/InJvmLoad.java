package io.github.redisdelaybridge.benchmark;

import org.apache.kafka.clients.producer.KafkaProducer;

/** The load from a producer (and, for a paced load, an {@link ArrivalRecorder}) in this JVM. */
final class InJvmLoad implements LoadGenerator {

    private final String bootstrap;
    private final KafkaProducer<byte[], byte[]> producer;
    private final byte[] payload;

    InJvmLoad(String bootstrap, KafkaProducer<byte[], byte[]> producer, byte[] payload) {
        this.bootstrap = bootstrap;
        this.producer = producer;
        this.payload = payload;
    }

    /** Returns once every ack is in: the publish is over when the caller starts waiting for it. */
    @Override
    public Publishing publish(String topic, int count, long delayMs, String target) throws Exception {
        producer.partitionsFor(topic);
        long started = System.currentTimeMillis();
        KafkaLoad.publish(producer, topic, count, payload, KafkaLoad.delayHeaders(delayMs, target));
        Published published = new Published(started, System.currentTimeMillis());
        return () -> published;
    }

    @Override
    public Arrivals paced(String topic, int rate, long durationMs, long delayMs, String target, long recordFrom) throws Exception {
        try (ArrivalRecorder arrivals = new ArrivalRecorder(bootstrap, target, 1, dueAt -> dueAt >= recordFrom)) {
            int sent = KafkaLoad.publishSteady(producer, topic, rate, durationMs, payload, KafkaLoad.delayHeaders(delayMs, target));
            arrivals.await(sent, delayMs + 60_000);
            return Arrivals.of(sent, arrivals);
        }
    }
}
