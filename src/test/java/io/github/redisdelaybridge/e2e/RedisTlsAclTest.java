package io.github.redisdelaybridge.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.redisdelaybridge.testkit.BridgeInstance;
import io.github.redisdelaybridge.testkit.EmbeddedKafka;
import io.github.redisdelaybridge.testkit.FreePorts;
import io.github.redisdelaybridge.testkit.KafkaTestClient;
import io.github.redisdelaybridge.testkit.KafkaTestClient.Received;
import io.github.redisdelaybridge.testkit.LogCapture;
import io.github.redisdelaybridge.testkit.RedisServerProcess;
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

/**
 * The bridge on a Redis it reaches only over TLS ({@code rediss://}, the server's certificate checked against a CA
 * the test made, a client certificate shown as {@code tls-auth-clients yes} demands) as an ACL user that holds only
 * the commands and keys docs/security.md lists. A message goes through it end to end, and a dead letter is kept.
 */
@Timeout(180)
class RedisTlsAclTest {

    private static final String NAME = "redis-tls-acl";
    private static final String PREFIX = "test-" + NAME;
    private static final String PASSWORD = "acl-pw-" + Long.toString(System.nanoTime(), 36);

    /**
     * The rule of docs/security.md for a Redis before 7.2 (7.2 adds +waitaof and +client|setinfo), read from the document,
     * so that the ACL users are told to set up is the one this test runs the bridge with.
     */
    static List<String> minimalAcl(String user, String password, String keyPrefix) {
        String line;
        try {
            line = Files.readAllLines(Path.of("docs/security.md")).stream().filter(l -> l.startsWith("ACL SETUSER bridge on >PASSWORD "))
                    .findFirst().orElseThrow(() -> new AssertionError("docs/security.md has no ACL SETUSER line"));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        List<String> rules = new ArrayList<>();
        for (String word : line.substring("ACL SETUSER ".length()).split(" ")) {
            rules.add(switch (word) {
                case "bridge" -> user;
                case ">PASSWORD" -> ">" + password;
                case "~rdb:*" -> "~" + keyPrefix + ":*";
                default -> word;
            });
        }
        return rules;
    }

    @Test
    void aMessageGoesThroughOverTlsAsALeastPrivilegeAclUser() throws Exception {
        TestCertificates certs = TestCertificates.generate(NAME);
        int tlsPort = FreePorts.next();
        List<String> arguments = new ArrayList<>(List.of("--tls-port", Integer.toString(tlsPort),
                "--tls-cert-file", certs.serverPem().toString(), "--tls-key-file", certs.serverKey().toString(),
                "--tls-ca-cert-file", certs.caPem().toString(), "--tls-auth-clients", "yes", "--user"));
        arguments.addAll(minimalAcl("bridge", PASSWORD, PREFIX));
        try (RedisServerProcess redis = new RedisServerProcess(NAME, false).with(arguments.toArray(String[]::new)).start();
             KafkaTestClient kafka = new KafkaTestClient(EmbeddedKafka.bootstrapServers());
             LogCapture logs = new LogCapture()) {
            kafka.createTopics(1, NAME + ".inbound", NAME + ".target", NAME + ".dlq");
            Map<String, String> settings = BridgeInstance.settings(NAME, "rediss://127.0.0.1:" + tlsPort);
            settings.put("bridge.redis.username", "bridge");
            settings.put("bridge.redis.password", PASSWORD);
            settings.put("bridge.redis.tls.truststore", certs.caPem().toString());
            settings.put("bridge.redis.tls.keystore", certs.clientKeystore().toString());
            settings.put("bridge.redis.tls.keystore-password", certs.password());
            settings.put("bridge.redis.tls.verify-peer", "full");
            try (BridgeInstance bridge = BridgeInstance.start(settings)) {
                kafka.sendAndWait(NAME + ".inbound", null, "over tls".getBytes(StandardCharsets.UTF_8),
                        Map.of("x-delay", "500", "x-target", "kafka:" + NAME + ".target", "x-message-id", "tls-1"));
                kafka.sendAndWait(NAME + ".inbound", null, "bad".getBytes(StandardCharsets.UTF_8),
                        Map.of("x-delay", "soon", "x-target", "kafka:" + NAME + ".target", "x-message-id", "tls-bad"));

                List<Received> delivered = kafka.consume(NAME + ".target", 1, Duration.ofSeconds(30));
                assertThat(delivered).hasSize(1);
                assertThat(delivered.get(0).messageId()).isEqualTo("tls-1");
                List<Received> dead = kafka.consume(NAME + ".dlq", 1, Duration.ofSeconds(30));
                assertThat(dead).hasSize(1);
                assertThat(dead.get(0).header("x-dead-letter-reason")).isEqualTo("invalid-delay");
                assertThat(bridge.httpGet("/api/dead-letters/tls-bad")).startsWith("200 ");
                // ready once every inbound consumer has joined its group (the Redis write probe passes as the ACL user)
                long deadline = System.currentTimeMillis() + 60_000;
                while (!bridge.httpGet("/observe/health/ready").startsWith("200 ") && System.currentTimeMillis() < deadline) {
                    Thread.sleep(200);
                }
                assertThat(bridge.httpGet("/observe/health/ready")).startsWith("200 ");
            }
            assertThat(redisCli(redis, "ACL", "LOG")).as("no command or key of the bridge was refused").isEmpty();
            assertThat(logs.messagesContaining(PASSWORD)).isEmpty();
        }
    }

    private static String redisCli(RedisServerProcess redis, String... command) throws Exception {
        List<String> line = new ArrayList<>(List.of("redis-cli", "-p", Integer.toString(redis.port())));
        line.addAll(List.of(command));
        Process process = new ProcessBuilder(line).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        process.waitFor();
        return output;
    }
}
