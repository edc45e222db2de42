package io.github.redisdelaybridge.embedded;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * bin/publish: sends one delayed message to a Kafka inbound topic.
 * Options: --bootstrap host:port, --topic t, --delay ms | --deliver-at instant, --target t, --id id,
 * --key k, --header name=value (repeatable); the last argument is the body text.
 */
public final class DelayedMessagePublisher {

    public static void main(String[] args) throws Exception {
        String bootstrap = "127.0.0.1:9092";
        String topic = "delay.inbound";
        String key = null;
        String body = null;
        List<Header> headers = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--bootstrap" -> bootstrap = args[++i];
                case "--topic" -> topic = args[++i];
                case "--key" -> key = args[++i];
                case "--delay" -> headers.add(header("x-delay", args[++i]));
                case "--deliver-at" -> headers.add(header("x-deliver-at", args[++i]));
                case "--target" -> headers.add(header("x-target", args[++i]));
                case "--id" -> headers.add(header("x-message-id", args[++i]));
                case "--header" -> {
                    String pair = args[++i];
                    int eq = pair.indexOf('=');
                    headers.add(header(pair.substring(0, eq), pair.substring(eq + 1)));
                }
                default -> body = args[i];
            }
        }
        Properties p = new Properties();
        p.put("bootstrap.servers", bootstrap);
        p.put("acks", "all");
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer())) {
            RecordMetadata sent = producer.send(new ProducerRecord<>(topic, null,
                    key == null ? null : key.getBytes(StandardCharsets.UTF_8),
                    body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8), headers)).get();
            System.out.printf("sent to %s/%d@%d%n", sent.topic(), sent.partition(), sent.offset());
        }
    }

    private static Header header(String name, String value) {
        return new RecordHeader(name, value.getBytes(StandardCharsets.UTF_8));
    }
}
