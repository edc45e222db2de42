package io.github.redisdelaybridge.tools;

import static io.github.redisdelaybridge.tools.FailureText.causes;
import static io.github.redisdelaybridge.tools.FailureText.oneLine;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * bin/publish's Kafka side: sends the message to the inbound topic with the bridge's producer properties and waits for the
 * broker's acknowledgement, failing in one line within the timeout.
 */
final class KafkaSender {

    private KafkaSender() {
    }

    /** What the broker acknowledged (topic, partition, offset). */
    static String send(PublishOptions options, BrokerSettings settings) throws NotSent {
        String bootstrap = settings.kafkaBootstrap();
        requireReachable(bootstrap, "Kafka broker", options.timeoutMs);
        // the bridge's producer properties (security above all), then what this tool needs to fail fast and in order
        Map<String, Object> p = new LinkedHashMap<>(settings.kafkaProperties());
        p.put("bootstrap.servers", bootstrap);
        p.put("client.id", "bin-publish");
        p.put("acks", "all");
        p.put("linger.ms", "0");
        p.put("max.block.ms", Long.toString(options.timeoutMs));
        p.put("request.timeout.ms", Long.toString(options.timeoutMs));
        p.put("delivery.timeout.ms", Long.toString(options.timeoutMs));
        p.put("reconnect.backoff.max.ms", "1000");
        List<Header> headers = new ArrayList<>();
        options.headers.forEach(h -> headers.add(new RecordHeader(h.getKey(), h.getValue().getBytes(StandardCharsets.UTF_8))));
        KafkaProducer<byte[], byte[]> producer;
        try {
            producer = new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
        } catch (org.apache.kafka.common.KafkaException e) {
            // a truststore that cannot be read, a JAAS line that does not parse, ...: say why, not "Failed to construct"
            throw new NotSent("cannot set up a Kafka producer with the settings of " + settings.source() + ": " + causes(e));
        }
        try {
            RecordMetadata sent = producer.send(new ProducerRecord<>(settings.topic(), null,
                    options.key == null ? null : options.key.getBytes(StandardCharsets.UTF_8),
                    options.body.getBytes(StandardCharsets.UTF_8), headers)).get(options.timeoutMs + 1_000, TimeUnit.MILLISECONDS);
            return String.format("sent to %s/%d@%d", sent.topic(), sent.partition(), sent.offset());
        } catch (ExecutionException e) {
            throw new NotSent("Kafka at " + bootstrap + " did not take the message: " + oneLine(e.getCause()));
        } catch (TimeoutException e) {
            throw new NotSent("Kafka at " + bootstrap + " did not acknowledge within " + options.timeoutMs + " ms");
        } catch (org.apache.kafka.common.KafkaException e) {
            throw new NotSent("Kafka at " + bootstrap + ": " + oneLine(e));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new NotSent("interrupted");
        } finally {
            producer.close(Duration.ofSeconds(1));
        }
    }

    /** Fails at once when no server of the list accepts a connection, instead of a client retrying until its timeout. */
    private static void requireReachable(String servers, String what, long timeoutMs) throws NotSent {
        String lastProblem = "";
        for (String server : servers.split(",")) {
            String hostAndPort = server.strip();
            int colon = hostAndPort.lastIndexOf(':');
            if (colon < 0) {
                throw new NotSent("'" + hostAndPort + "' is not HOST:PORT");
            }
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress(hostAndPort.substring(0, colon).replace("[", "").replace("]", ""),
                        Integer.parseInt(hostAndPort.substring(colon + 1))), (int) Math.min(timeoutMs, 5_000));
                return;
            } catch (IOException | IllegalArgumentException e) {
                lastProblem = oneLine(e);
            }
        }
        throw new NotSent("no " + what + " answers at " + servers + " (" + lastProblem + ")");
    }
}
