package io.github.redisdelaybridge.observe;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.redisdelaybridge.health.InstanceIdGuard;
import io.github.redisdelaybridge.store.Keys;
import io.github.redisdelaybridge.store.connection.RedisConnection;
import io.github.redisdelaybridge.testkit.BridgeInstance;
import io.github.redisdelaybridge.testkit.EmbeddedKafka;
import io.github.redisdelaybridge.testkit.FreePorts;
import io.github.redisdelaybridge.testkit.KafkaTestClient.Received;
import io.github.redisdelaybridge.testkit.KafkaTestClient;
import io.github.redisdelaybridge.testkit.PrometheusScrape;
import io.github.redisdelaybridge.testkit.RedisServerProcess;
import io.github.redisdelaybridge.testkit.TargetCollector;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * /observe/health/ready and /live of a running bridge on a redis-server of the test's own: readiness follows whether Redis
 * takes writes (stopped, full under noeviction, a read-only replica), liveness follows the dispatch loop (frozen by
 * suspending its timer route, the loop's only driver: no mock involved).
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class HealthProbesTest {

    private static final String NAME = "health-probes";
    private static final String DISPATCH_ROUTE = "dispatch-due-messages";
    private static final String INSTANCE_ID = NAME + "-1";

    private static RedisServerProcess redis;
    private static KafkaTestClient kafka;
    private static BridgeInstance bridge;
    private static String inbound;
    private static String target;
    /** Where the bridge's instance-id guard writes its token. */
    private static String instanceIdKey;

    @BeforeAll
    static void start() throws Exception {
        redis = new RedisServerProcess(NAME, false).start();
        kafka = new KafkaTestClient(EmbeddedKafka.bootstrapServers());
        Map<String, String> settings = BridgeInstance.settings(NAME, redis.uri());
        settings.put("bridge.redis.command-timeout-ms", "2000");
        settings.put("bridge.health.dispatch-stall-ms", "6500"); // just above the longest healthy cycle: 100 + 2 x 2000 + 2000 ms
        settings.put("bridge.metrics.cache-ms", "200");
        settings.put("bridge.instance-id", INSTANCE_ID);
        instanceIdKey = new Keys(settings.get("bridge.redis.key-prefix"), 1).instanceIdHolder(INSTANCE_ID);
        inbound = settings.get("bridge.kafka.inbound-topics");
        target = NAME + ".target";
        kafka.createTopics(1, inbound, target, settings.get("bridge.dead-letter.kafka-topic"));
        bridge = BridgeInstance.start(settings);
        awaitStatus("/observe/health/ready", 200, Duration.ofSeconds(60));
    }

    @AfterAll
    static void stop() throws Exception {
        if (bridge != null) {
            bridge.close();
        }
        kafka.close();
        redis.close();
    }

    @Test
    void notReadyWhileRedisIsStoppedYetAlive() throws Exception {
        redis.stop();
        try {
            String ready = awaitStatus("/observe/health/ready", 503, Duration.ofSeconds(30));
            assertThat(ready).contains("\"redis\"").contains("Redis does not take writes");
            assertThat(bridge.httpGet("/observe/health/live")).as("Redis down is no reason to restart the bridge").startsWith("200");
            assertThat(PrometheusScrape.of(bridge).value("bridge_ready")).isZero();
        } finally {
            redis.start();
        }
        awaitStatus("/observe/health/ready", 200, Duration.ofSeconds(60));
        assertThat(PrometheusScrape.of(bridge).value("bridge_ready")).isEqualTo(1);
    }

    @Test
    void notReadyWhileRedisRefusesWritesThoughItAnswersPing() throws Exception {
        try (RedisClient client = RedisClient.create(redis.uri()); StatefulRedisConnection<String, String> admin = client.connect()) {
            admin.sync().configSet("maxmemory", "1");
            try {
                assertThat(awaitStatus("/observe/health/ready", 503, Duration.ofSeconds(30))).contains("OOM");
                assertThat(admin.sync().ping()).isEqualTo("PONG");
            } finally {
                admin.sync().configSet("maxmemory", "0");
            }
            awaitStatus("/observe/health/ready", 200, Duration.ofSeconds(30));

            admin.sync().replicaof("127.0.0.1", FreePorts.next()); // a master nobody runs: a read-only replica
            try {
                assertThat(awaitStatus("/observe/health/ready", 503, Duration.ofSeconds(30))).contains("READONLY");
            } finally {
                admin.sync().replicaofNoOne();
            }
            awaitStatus("/observe/health/ready", 200, Duration.ofSeconds(30));
        }
    }

    @Test
    void notReadyWhileAnotherBridgeRunsWithItsInstanceId() throws Exception {
        // what a second bridge process started with this instance id runs: its own guard, writing the same key
        try (RedisConnection secondProcess = new RedisConnection(redis.uri(), Duration.ofSeconds(5));
             InstanceIdGuard secondGuard = new InstanceIdGuard(secondProcess, instanceIdKey, INSTANCE_ID,
                     1_000, 2_000).start()) {
            String ready = awaitStatus("/observe/health/ready", 503, Duration.ofSeconds(60));
            assertThat(ready).contains("bridge.instance-id " + INSTANCE_ID + " is also used by another running bridge (" + secondGuard.token());
            assertThat(bridge.httpGet("/observe/health/live")).as("a restart with the same id would change nothing").startsWith("200");
            assertThat(PrometheusScrape.of(bridge).value("bridge_ready")).isZero();
        }
        awaitStatus("/observe/health/ready", 200, Duration.ofSeconds(60));
    }

    @Test
    void notLiveWhileTheDispatchLoopIsFrozenAndMessagesAreDue() throws Exception {
        try (TargetCollector collector = new TargetCollector(kafka, target)) {
            bridge.context().getRouteController().suspendRoute(DISPATCH_ROUTE);
            try {
                Thread.sleep(7_500); // longer than dispatch-stall-ms, and nothing is due
                assertThat(bridge.httpGet("/observe/health/live")).as("a loop with nothing to do is not stalled").startsWith("200");

                kafka.sendAndWait(inbound, null, "due now".getBytes(StandardCharsets.UTF_8),
                        Map.of("x-delay", "0", "x-target", "kafka:" + target, "x-message-id", NAME + "-due"));
                String live = awaitStatus("/observe/health/live", 503, Duration.ofSeconds(30));
                assertThat(live).contains("\"dispatch\"").contains("has not completed a cycle");
                assertThat(PrometheusScrape.of(bridge).value("bridge_dispatch_stalled")).isEqualTo(1);
                // (readiness is DOWN too here, but by Camel's own check of the suspended route, not by this freeze as such)
                assertThat(collector.received()).isEmpty();
            } finally {
                bridge.context().getRouteController().resumeRoute(DISPATCH_ROUTE);
            }
            awaitStatus("/observe/health/live", 200, Duration.ofSeconds(30));
            collector.awaitDistinct(1, Received::messageId, Duration.ofSeconds(30));
            assertThat(PrometheusScrape.of(bridge).value("bridge_dispatch_stalled")).isZero();
        }
    }

    /** Polls a health path until it answers {@code status}; returns the full answer then (exposureLevel=full). */
    private static String awaitStatus(String path, int status, Duration timeout) throws InterruptedException {
        long deadline = System.currentTimeMillis() + timeout.toMillis();
        String answer;
        do {
            answer = bridge.httpGet(path + "?exposureLevel=full");
            if (answer.startsWith(status + " ")) {
                return answer;
            }
            Thread.sleep(200);
        } while (System.currentTimeMillis() < deadline);
        throw new AssertionError(path + " did not answer " + status + " within " + timeout + "; last: " + answer);
    }
}
