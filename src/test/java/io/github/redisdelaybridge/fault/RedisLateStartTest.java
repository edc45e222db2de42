package io.github.redisdelaybridge.fault;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import io.github.redisdelaybridge.health.RedisServerWatch;
import io.github.redisdelaybridge.testkit.BridgeInstance;
import io.github.redisdelaybridge.testkit.EmbeddedKafka;
import io.github.redisdelaybridge.testkit.FreePorts;
import io.github.redisdelaybridge.testkit.KafkaTestClient;
import io.github.redisdelaybridge.testkit.KafkaTestClient.Received;
import io.github.redisdelaybridge.testkit.LogCapture;
import io.github.redisdelaybridge.testkit.RedisServerProcess;
import io.github.redisdelaybridge.testkit.TargetCollector;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Redis is not there when the bridge starts: the bridge starts anyway and reports not ready, holds what arrives,
 * and once Redis comes 20 s later it connects, checks it, stores the message published meanwhile and delivers it.
 * The outage costs a few log lines, not one per attempt.
 */
class RedisLateStartTest {

    private static final String NAME = "redis-late-start";

    @Test
    void bridgeStartsWithoutRedisAndDeliversOnceRedisComes() throws Exception {
        int redisPort = FreePorts.next();
        try (RedisServerProcess redis = new RedisServerProcess(NAME, false, redisPort);
             KafkaTestClient kafka = new KafkaTestClient(EmbeddedKafka.bootstrapServers());
             LogCapture logs = new LogCapture()) {
            Map<String, String> settings = BridgeInstance.settings(NAME, redis.uri());
            settings.put("bridge.redis.command-timeout-ms", "2000");
            String inbound = settings.get("bridge.kafka.inbound-topics");
            String target = NAME + ".target";
            kafka.createTopics(1, inbound, target);
            try (TargetCollector collector = new TargetCollector(kafka, target);
                 BridgeInstance bridge = BridgeInstance.start(settings)) {
                long started = System.currentTimeMillis();
                RedisServerWatch watch = bridge.context().getRegistry().lookupByNameAndType("redisServerWatch", RedisServerWatch.class);
                assertThat(watch.redisAvailable()).isFalse();
                assertThat(bridge.httpGet("/observe/health?exposureLevel=full")).contains("DOWN").contains("redis");
                kafka.sendAndWait(inbound, null, "published before Redis came".getBytes(),
                        Map.of("x-delay", "500", "x-target", "kafka:" + target, "x-message-id", "early-1"));

                Thread.sleep(Math.max(0, started + 20_000 - System.currentTimeMillis()));
                assertThat(collector.received()).isEmpty();
                List<String> noiseWhileDown = logs.messagesAtLeast(Level.WARN, "io.github.redisdelaybridge", "io.lettuce");
                redis.start();

                collector.awaitDistinct(1, Received::messageId, Duration.ofSeconds(60));
                assertThat(collector.received()).singleElement().satisfies(r -> assertThat(new String(r.record().value()))
                        .isEqualTo("published before Redis came"));
                long deadline = System.currentTimeMillis() + 10_000;
                while (!watch.redisAvailable() && System.currentTimeMillis() < deadline) {
                    Thread.sleep(100);
                }
                assertThat(watch.redisAvailable()).isTrue();
                assertThat(bridge.httpGet("/observe/health?exposureLevel=full")).startsWith("200").contains("UP");
                System.out.println("warnings while Redis was down for 20 s: " + noiseWhileDown.size() + "\n  " + String.join("\n  ", noiseWhileDown));
                assertThat(noiseWhileDown).as("bounded log noise over 20 s without Redis").hasSizeBetween(1, 6);
            }
        }
    }
}
