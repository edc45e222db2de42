package io.github.redisdelaybridge.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.redisdelaybridge.testkit.BridgeInstance;
import io.github.redisdelaybridge.testkit.FreePorts;
import io.github.redisdelaybridge.testkit.LocalRedis;
import io.github.redisdelaybridge.testkit.RabbitMqTenant;
import io.github.redisdelaybridge.testkit.RabbitMqTestClient;
import io.github.redisdelaybridge.testkit.RabbitMqTestClient.Received;
import io.github.redisdelaybridge.testkit.TestCertificates;
import io.github.redisdelaybridge.testkit.TlsRelay;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The bridge on RabbitMQ as a user of its own in a virtual host of its own (both made by the test with rabbitmqctl and
 * deleted after), over TLS (AMQPS with the server certificate checked against the test's CA and the host name), given
 * a host list whose first node is down: it connects to the next one. The TLS listener is a relay the test runs in front
 * of the shared broker's plain port (the shared broker's configuration is not changed).
 */
@Timeout(180)
class RabbitMqSecuredConnectionTest {

    @Test
    void aMessageGoesThroughAsAVirtualHostUserOverTlsWithAHostList() throws Exception {
        String name = "rabbitmq-secured";
        TestCertificates certs = TestCertificates.generate(name);
        LocalRedis.deleteKeys("test-" + name);
        try (RabbitMqTenant tenant = RabbitMqTenant.create("rdb-test")) {
            String vhost = tenant.virtualHost();
            String user = tenant.user();
            String password = tenant.password();
            try (TlsRelay tls = new TlsRelay(certs, RabbitMqTestClient.HOST, RabbitMqTestClient.PORT);
                 RabbitMqTestClient rabbit = new RabbitMqTestClient(vhost)) {
                rabbit.declareQueue(name + ".target");
                Map<String, String> settings = BridgeInstance.withRabbitMq(BridgeInstance.settings(name, LocalRedis.URI), name);
                settings.put("bridge.rabbitmq.host", "127.0.0.1:" + FreePorts.next() + ", 127.0.0.1:" + tls.port());
                settings.put("bridge.rabbitmq.virtual-host", vhost);
                settings.put("bridge.rabbitmq.username", user);
                settings.put("bridge.rabbitmq.password", password);
                settings.put("bridge.rabbitmq.tls.enabled", "true");
                settings.put("bridge.rabbitmq.tls.truststore", certs.truststore().toString());
                settings.put("bridge.rabbitmq.tls.truststore-password", certs.password());
                settings.put("bridge.rabbitmq.tls.verify-hostname", "true");
                try (BridgeInstance bridge = BridgeInstance.start(settings)) {
                    awaitQueue(rabbit, name + ".inbound");
                    rabbit.publishToQueue(name + ".inbound", Map.of("x-delay", 300, "x-target", "rabbitmq:/" + name + ".target",
                            "x-message-id", name + "-ok"), "over amqps".getBytes(StandardCharsets.UTF_8));
                    rabbit.publishToQueue(name + ".inbound", Map.of("x-delay", "soon", "x-target", "rabbitmq:/" + name + ".target",
                            "x-message-id", name + "-bad"), "bad".getBytes(StandardCharsets.UTF_8));

                    List<Received> delivered = rabbit.consume(name + ".target", 1, Duration.ofSeconds(30));
                    assertThat(delivered).hasSize(1);
                    assertThat(delivered.get(0).headerText("x-message-id")).isEqualTo(name + "-ok");
                    List<Received> dead = rabbit.consume(name + ".dlq", 1, Duration.ofSeconds(30));
                    assertThat(dead).hasSize(1);
                    assertThat(dead.get(0).headerText("x-dead-letter-reason")).isEqualTo("invalid-delay");
                    String users = RabbitMqTestClient.rabbitmqctl("list_connections", "-q", "--no-table-headers", "-p", vhost, "user", "ssl");
                    assertThat(users).as("the bridge's connections in the test's virtual host, as its user").contains(user);
                }
            }
        }
    }

    private static void awaitQueue(RabbitMqTestClient rabbit, String queue) throws InterruptedException {
        long deadline = System.currentTimeMillis() + 30_000;
        while (System.currentTimeMillis() < deadline) {
            try {
                rabbit.readyAndUnacked(queue);
                return;
            } catch (RuntimeException notYet) {
                Thread.sleep(200);
            }
        }
        throw new AssertionError("the bridge did not declare " + queue);
    }
}
