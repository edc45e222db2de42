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
 * bin/publish: sends one delayed message to a Kafka inbound topic, or with {@code --rabbitmq host:port}
 * to a RabbitMQ inbound queue (through the default exchange; x-delay as an AMQP integer, as with the
 * delayed-message plugin). Options: --bootstrap host:port, --topic t, --rabbitmq host:port, --queue q,
 * --delay ms | --deliver-at instant, --target t, --id id, --key k, --header name=value (repeatable);
 * the last argument is the body text.
 */
public final class DelayedMessagePublisher {

    public static void main(String[] args) throws Exception {
        String bootstrap = "127.0.0.1:9092";
        String topic = "delay.inbound";
        String rabbitMq = null;
        String queue = "delay.inbound";
        String key = null;
        String body = null;
        List<Header> headers = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--bootstrap" -> bootstrap = args[++i];
                case "--topic" -> topic = args[++i];
                case "--rabbitmq" -> rabbitMq = args[++i];
                case "--queue" -> queue = args[++i];
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
        if (rabbitMq != null) {
            publishToRabbitMq(rabbitMq, queue, headers, body == null ? "" : body);
            return;
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

    private static void publishToRabbitMq(String hostAndPort, String queue, List<Header> headers, String body) throws Exception {
        com.rabbitmq.client.ConnectionFactory factory = new com.rabbitmq.client.ConnectionFactory();
        factory.setHost(hostAndPort.substring(0, hostAndPort.indexOf(':')));
        factory.setPort(Integer.parseInt(hostAndPort.substring(hostAndPort.indexOf(':') + 1)));
        java.util.Map<String, Object> table = new java.util.LinkedHashMap<>();
        for (Header header : headers) {
            String value = new String(header.value(), StandardCharsets.UTF_8);
            table.put(header.key(), header.key().equals("x-delay") && value.matches("[0-9]{1,9}") ? Integer.valueOf(value) : value);
        }
        try (com.rabbitmq.client.Connection connection = factory.newConnection("bin-publish")) {
            com.rabbitmq.client.Channel channel = connection.createChannel();
            channel.confirmSelect();
            channel.basicPublish("", queue, true, new com.rabbitmq.client.AMQP.BasicProperties.Builder()
                    .headers(table).deliveryMode(2).contentType("text/plain").build(), body.getBytes(StandardCharsets.UTF_8));
            channel.waitForConfirmsOrDie(10_000);
            System.out.printf("sent to RabbitMQ queue %s%n", queue);
        }
    }

    private static Header header(String name, String value) {
        return new RecordHeader(name, value.getBytes(StandardCharsets.UTF_8));
    }
}
