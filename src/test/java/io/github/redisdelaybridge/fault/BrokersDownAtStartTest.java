package io.github.redisdelaybridge.fault;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import io.github.redisdelaybridge.testkit.BridgeInstance;
import io.github.redisdelaybridge.testkit.EmbeddedKafka;
import io.github.redisdelaybridge.testkit.KafkaTestClient;
import io.github.redisdelaybridge.testkit.LocalRedis;
import io.github.redisdelaybridge.testkit.LogCapture;
import io.github.redisdelaybridge.testkit.RabbitMqTestClient;
import io.github.redisdelaybridge.testkit.TcpRelay;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Kafka and RabbitMQ unreachable when the bridge starts (each behind a relay the test cuts): the bridge starts anyway,
 * writes a bounded number of WARN lines while it waits for them (not one per client per reconnect attempt), and
 * delivers once they are reachable: Kafka inbound to a RabbitMQ target.
 */
class BrokersDownAtStartTest {

    private static final String NAME = "brokers-down-at-start";
    /** Waiting this long with both brokers down ... */
    private static final long DOWN_MS = 20_000;
    /** ... may write at most this many WARN or ERROR lines (a few per client and broker, then quiet). */
    private static final int MAX_LINES_WHILE_DOWN = 40;

    @Test
    @Timeout(value = 4, unit = TimeUnit.MINUTES)
    void theBridgeStartsWaitsQuietlyAndDeliversOnceTheBrokersAreThere() throws Exception {
        LocalRedis.deleteKeys("test-" + NAME);
        String targetQueue = NAME + ".target";
        String bootstrapPort = EmbeddedKafka.bootstrapServers().substring(EmbeddedKafka.bootstrapServers().lastIndexOf(':') + 1);
        try (KafkaTestClient kafka = new KafkaTestClient(EmbeddedKafka.bootstrapServers());
             RabbitMqTestClient rabbit = new RabbitMqTestClient();
             TcpRelay kafkaRelay = new TcpRelay("127.0.0.1", Integer.parseInt(bootstrapPort));
             TcpRelay rabbitRelay = new TcpRelay(RabbitMqTestClient.HOST, RabbitMqTestClient.PORT)) {
            Map<String, String> settings = BridgeInstance.withRabbitMq(BridgeInstance.settings(NAME, LocalRedis.URI), NAME);
            settings.put("bridge.kafka.bootstrap-servers", "127.0.0.1:" + kafkaRelay.port());
            settings.put("bridge.rabbitmq.port", Integer.toString(rabbitRelay.port()));
            String inbound = settings.get("bridge.kafka.inbound-topics");
            kafka.createTopics(1, inbound, settings.get("bridge.dead-letter.kafka-topic"));
            rabbit.declareQueue(targetQueue);
            kafkaRelay.cut();
            rabbitRelay.cut();
            try (LogCapture logs = new LogCapture()) {
                long started = System.currentTimeMillis();
                try (BridgeInstance bridge = BridgeInstance.start(settings)) {
                    long startTookMs = System.currentTimeMillis() - started;
                    Thread.sleep(Math.max(0, DOWN_MS - startTookMs));
                    List<String> whileDown = logs.messagesAtLeast(Level.WARN);
                    System.out.printf("FAULT-REPORT %s: started in %d ms with Kafka and RabbitMQ down; %d WARN/ERROR lines in %d s%n", NAME,
                            startTookMs, whileDown.size(), DOWN_MS / 1000);
                    assertThat(whileDown).as("WARN and ERROR lines while the brokers were down").hasSizeLessThanOrEqualTo(MAX_LINES_WHILE_DOWN);

                    kafkaRelay.restore();
                    rabbitRelay.restore();
                    kafka.send(inbound, null, "late".getBytes(StandardCharsets.UTF_8),
                            Map.of("x-delay", "100", "x-target", "rabbitmq:/" + targetQueue, "x-message-id", "after-the-outage")).get();
                    List<RabbitMqTestClient.Received> received = rabbit.consume(targetQueue, 1, Duration.ofSeconds(90));
                    assertThat(received).as("delivered once the brokers are reachable").hasSize(1);
                    assertThat(received.get(0).body()).isEqualTo("late".getBytes(StandardCharsets.UTF_8));
                }
            }
        }
    }
}
