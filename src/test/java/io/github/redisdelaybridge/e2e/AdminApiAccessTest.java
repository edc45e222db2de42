package io.github.redisdelaybridge.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.github.redisdelaybridge.testkit.AdminApiClient;
import io.github.redisdelaybridge.testkit.AdminApiClient.Response;
import io.github.redisdelaybridge.testkit.BridgeInstance;
import io.github.redisdelaybridge.testkit.LocalRedis;
import io.github.redisdelaybridge.testkit.LogCapture;
import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.Socket;
import java.net.SocketException;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Who may use the admin API: the HTTP server on loopback by default; without a token the API answers only while the
 * server itself listens on loopback (a client connecting from 127.0.0.1 proves nothing); read and write tokens; writes
 * logged with their caller; a request body limit. Health and metrics stay open throughout.
 */
@Timeout(240)
class AdminApiAccessTest {

    @Test
    void byDefaultTheServerListensOnLoopbackAndTheApiIsOpenToThisHostOnly() throws Exception {
        String name = "admin-access-default";
        LocalRedis.deleteKeys("test-" + name);
        Map<String, String> settings = BridgeInstance.settings(name, LocalRedis.URI); // camel.server.host as shipped
        String port = settings.get("camel.server.port");
        try (LogCapture logs = new LogCapture(); BridgeInstance bridge = BridgeInstance.start(settings)) {
            AdminApiClient api = new AdminApiClient("http://127.0.0.1:" + port, null);
            assertThat(api.get("/api/stats").status()).isEqualTo(200);
            assertThat(api.delete("/api/messages/unknown").status()).isEqualTo(404);
            assertThat(logs.messagesContaining("admin write: DELETE /api/messages/unknown by no-token-loopback-server from 127.0.0.1:"))
                    .hasSize(1);

            Optional<InetAddress> address = nonLoopbackAddress();
            assumeTrue(address.isPresent(), "this host has no non-loopback IPv4 address to connect from");
            try (Socket socket = new Socket()) {
                assertThatThrownBy(() -> socket.connect(new InetSocketAddress(address.get(), Integer.parseInt(port)), 2_000))
                        .as("the server must not listen on " + address.get()).isInstanceOf(IOException.class);
            }
        }
    }

    @Test
    void onEveryInterfaceWithoutATokenTheApiRefusesEvenLoopbackClients() {
        String name = "admin-access-wide";
        LocalRedis.deleteKeys("test-" + name);
        Map<String, String> settings = BridgeInstance.settings(name, LocalRedis.URI);
        settings.put("camel.server.host", "0.0.0.0");
        String port = settings.get("camel.server.port");
        try (BridgeInstance bridge = BridgeInstance.start(settings)) {
            AdminApiClient fromLoopback = new AdminApiClient("http://127.0.0.1:" + port, null);
            Response read = fromLoopback.get("/api/stats");
            assertThat(read.status()).isEqualTo(403);
            assertThat(read.error()).contains("bridge.admin.token").contains("camel.server.host");
            assertThat(fromLoopback.delete("/api/messages/x").status()).isEqualTo(403);
            assertThat(fromLoopback.get("/observe/health").status()).isEqualTo(200);
            assertThat(fromLoopback.get("/observe/metrics").status()).isEqualTo(200);
        }
    }

    @Test
    void readAndWriteTokensWritesAuditedAndBodiesLimited() {
        String name = "admin-access-tokens";
        LocalRedis.deleteKeys("test-" + name);
        Map<String, String> settings = BridgeInstance.settings(name, LocalRedis.URI);
        settings.put("camel.server.host", "0.0.0.0");
        settings.put("bridge.admin.token", "write-t0ken-" + name);
        settings.put("bridge.admin.read-token", "read-t0ken-" + name);
        String base = "http://127.0.0.1:" + settings.get("camel.server.port");
        try (LogCapture logs = new LogCapture(); BridgeInstance bridge = BridgeInstance.start(settings)) {
            AdminApiClient none = new AdminApiClient(base, null);
            AdminApiClient reader = new AdminApiClient(base, "read-t0ken-" + name);
            AdminApiClient writer = new AdminApiClient(base, "write-t0ken-" + name);

            assertThat(none.get("/api/stats").status()).isEqualTo(401);
            assertThat(none.get("/observe/health").status()).isEqualTo(200);
            assertThat(none.get("/observe/metrics").status()).isEqualTo(200);
            assertThat(reader.get("/api/stats").status()).isEqualTo(200);
            assertThat(reader.get("/api/messages/unknown").status()).isEqualTo(404);
            Response readerWrite = reader.delete("/api/messages/unknown");
            assertThat(readerWrite.status()).isEqualTo(403);
            assertThat(readerWrite.error()).contains("read-only");
            assertThat(writer.get("/api/stats").status()).isEqualTo(200);
            assertThat(writer.delete("/api/messages/unknown").status()).isEqualTo(404);

            assertThat(logs.messagesContaining("admin write: DELETE /api/messages/unknown by write-token from 127.0.0.1:")).hasSize(1);
            assertThat(logs.messagesContaining("admin request refused (403): DELETE /api/messages/unknown from 127.0.0.1:")).hasSize(1);
            assertThat(logs.messagesContaining("admin write:")).as("reads are not audited").hasSize(1);

            // the body limit (64 KiB as shipped): a larger reschedule is refused before any route sees it
            String small = "{\"delayMs\": 1000}";
            assertThat(writer.put("/api/messages/unknown/due", small).status()).isEqualTo(404);
            String large = "{\"delayMs\": 1000, \"pad\": \"" + "x".repeat(65 * 1024) + "\"}";
            assertThat(writer.put("/api/messages/unknown/due", large).status()).isEqualTo(413);
            List<String> leaked = logs.messagesContaining("t0ken-" + name);
            assertThat(leaked).as("no token in any log line").isEmpty();
        }
    }

    @Test
    void theBodyLimitIsConfigurable() {
        String name = "admin-access-body";
        LocalRedis.deleteKeys("test-" + name);
        Map<String, String> settings = BridgeInstance.settings(name, LocalRedis.URI);
        settings.put("camel.server.max-body-size", "1024");
        String base = "http://127.0.0.1:" + settings.get("camel.server.port");
        try (BridgeInstance bridge = BridgeInstance.start(settings)) {
            AdminApiClient api = new AdminApiClient(base, null);
            assertThat(api.put("/api/messages/unknown/due", "{\"delayMs\": 1000}").status()).isEqualTo(404);
            assertThat(api.put("/api/messages/unknown/due", "{\"delayMs\": 1000, \"pad\": \"" + "x".repeat(2048) + "\"}").status())
                    .isEqualTo(413);
        }
    }

    private static Optional<InetAddress> nonLoopbackAddress() throws SocketException {
        for (NetworkInterface networkInterface : Collections.list(NetworkInterface.getNetworkInterfaces())) {
            if (!networkInterface.isUp() || networkInterface.isLoopback()) {
                continue;
            }
            for (InetAddress address : Collections.list(networkInterface.getInetAddresses())) {
                if (address instanceof Inet4Address && !address.isLoopbackAddress() && !address.isLinkLocalAddress()) {
                    return Optional.of(address);
                }
            }
        }
        return Optional.empty();
    }
}
