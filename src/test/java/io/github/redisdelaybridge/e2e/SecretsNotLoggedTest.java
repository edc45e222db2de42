package io.github.redisdelaybridge.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import io.github.redisdelaybridge.testkit.AdminApiClient;
import io.github.redisdelaybridge.testkit.BridgeInstance;
import io.github.redisdelaybridge.testkit.KafkaTestClient;
import io.github.redisdelaybridge.testkit.KafkaTestClient.Received;
import io.github.redisdelaybridge.testkit.LogCapture;
import io.github.redisdelaybridge.testkit.RabbitMqTestClient;
import io.github.redisdelaybridge.testkit.RedisServerProcess;
import io.github.redisdelaybridge.testkit.SecuredKafka;
import io.github.redisdelaybridge.testkit.TestCertificates;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.LoggerFactory;

/**
 * The bridge run with every kind of secret set (a Redis ACL password, partly in the URI too; a RabbitMQ password;
 * admin tokens; a Kafka JAAS password, from a file), with every logger at INFO, through a start, a delivery, admin
 * calls (one with a wrong token) and a stop: no captured log line holds any of them.
 */
@Timeout(300)
class SecretsNotLoggedTest {

    @Test
    void noLogLineHoldsASecret() throws Exception {
        String name = "secrets-not-logged";
        String suffix = Long.toString(System.nanoTime(), 36);
        String redisPassword = "redis-acl-" + suffix;
        String rabbitPassword = "amqp-pw-" + suffix;
        String adminToken = "admin-write-" + suffix;
        String readToken = "admin-read-" + suffix;
        String jaasPassword = "jaas-pw-" + suffix;
        List<String> secrets = List.of(redisPassword, rabbitPassword, adminToken, readToken, jaasPassword);
        String vhost = "rdb-test-" + suffix;
        String user = "rdb-bridge-" + suffix;

        Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        Level rootLevel = root.getLevel();
        List<Logger> quieted = new ArrayList<>();
        for (Logger logger : root.getLoggerContext().getLoggerList()) {
            if (logger != root && logger.getLevel() != null && logger.getLevel().isGreaterOrEqual(Level.WARN)) {
                quieted.add(logger);
            }
        }
        List<Level> quietedLevels = quieted.stream().map(Logger::getLevel).toList();
        RabbitMqTestClient.rabbitmqctl("add_vhost", vhost);
        try (LogCapture logs = new LogCapture()) {
            RabbitMqTestClient.rabbitmqctl("add_user", user, rabbitPassword);
            RabbitMqTestClient.rabbitmqctl("set_permissions", "-p", vhost, user, ".*", ".*", ".*");
            root.setLevel(Level.INFO);
            quieted.forEach(logger -> logger.setLevel(Level.INFO));

            TestCertificates certs = TestCertificates.generate(name);
            List<String> acl = new ArrayList<>(List.of("--user"));
            acl.addAll(RedisTlsAclTest.minimalAcl("bridge", redisPassword, "test-" + name));
            Path jaas = Files.writeString(Files.createTempFile("jaas", ".conf"), SecuredKafka.clientJaas(jaasPassword));
            Path redisPasswordFile = Files.writeString(Files.createTempFile("redis", ".pw"), redisPassword + "\n");
            try (RedisServerProcess redis = new RedisServerProcess(name, false).with(acl.toArray(String[]::new)).start();
                 SecuredKafka broker = SecuredKafka.start(certs, jaasPassword);
                 KafkaTestClient kafka = new KafkaTestClient(broker.plainBootstrap())) {
                kafka.createTopics(1, name + ".inbound", name + ".target", name + ".dlq");
                // the password in the URI as well: the URI is logged, redacted
                Map<String, String> settings = BridgeInstance.settings(name, "redis://bridge:" + redisPassword + "@127.0.0.1:" + redis.port());
                BridgeInstance.withRabbitMq(settings, name);
                settings.put("bridge.kafka.bootstrap-servers", broker.saslBootstrap());
                settings.put("bridge.kafka.client.security.protocol", "SASL_PLAINTEXT");
                settings.put("bridge.kafka.client.sasl.mechanism", "PLAIN");
                settings.put("bridge.kafka.client.sasl.jaas.config-file", jaas.toString());
                settings.put("bridge.redis.username", "bridge");
                settings.put("bridge.redis.password-file", redisPasswordFile.toString());
                settings.put("bridge.rabbitmq.virtual-host", vhost);
                settings.put("bridge.rabbitmq.username", user);
                settings.put("bridge.rabbitmq.password", rabbitPassword);
                settings.put("bridge.admin.token", adminToken);
                settings.put("bridge.admin.read-token", readToken);
                String base = "http://127.0.0.1:" + settings.get("camel.server.port");
                try (BridgeInstance bridge = BridgeInstance.start(settings)) {
                    kafka.sendAndWait(name + ".inbound", null, "x".getBytes(StandardCharsets.UTF_8),
                            Map.of("x-delay", "200", "x-target", "kafka:" + name + ".target", "x-message-id", "s-1"));
                    List<Received> delivered = kafka.consume(name + ".target", 1, Duration.ofSeconds(60));
                    assertThat(delivered).extracting(Received::messageId).containsExactly("s-1");
                    assertThat(new AdminApiClient(base, readToken).get("/api/messages/s-1").status()).isIn(200, 404);
                    assertThat(new AdminApiClient(base, readToken).delete("/api/messages/s-1").status()).isEqualTo(403);
                    assertThat(new AdminApiClient(base, adminToken).delete("/api/messages/s-1").status()).isIn(200, 404, 409);
                    assertThat(new AdminApiClient(base, adminToken + "-wrong").get("/api/stats").status()).isEqualTo(401);
                    assertThat(RabbitMqTestClient.rabbitmqctl("list_connections", "-q", "--no-table-headers", "-p", vhost, "user"))
                            .contains(user);
                }
            }
            assertThat(logs.messagesContaining("bridge instance ")).as("the capture saw the bridge start").isNotEmpty();
            assertThat(logs.messagesContaining("admin write: DELETE")).as("the capture saw the admin calls").isNotEmpty();
            for (String secret : secrets) {
                assertThat(logs.messagesContaining(secret)).as("log lines holding a secret").isEmpty();
            }
        } finally {
            root.setLevel(rootLevel);
            for (int i = 0; i < quieted.size(); i++) {
                quieted.get(i).setLevel(quietedLevels.get(i));
            }
            RabbitMqTestClient.rabbitmqctl("delete_vhost", vhost);
            try {
                RabbitMqTestClient.rabbitmqctl("delete_user", user);
            } catch (IllegalStateException notCreated) {
                // add_user failed before
            }
        }
    }
}
