package io.github.redisdelaybridge.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.github.redisdelaybridge.testkit.AdminApiClient;
import io.github.redisdelaybridge.testkit.AdminApiClient.Response;
import io.github.redisdelaybridge.testkit.BridgeInstance;
import io.github.redisdelaybridge.testkit.LocalRedis;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.util.Collections;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * With no bridge.admin.token, the admin API answers loopback clients only; a client connecting through a
 * non-loopback address of this host gets 403, while health stays reachable for it.
 */
class AdminApiLoopbackTest {

    private static final String NAME = "admin-loopback";

    private static BridgeInstance bridge;
    private static String port;

    @BeforeAll
    static void startBridge() {
        LocalRedis.deleteKeys("test-" + NAME);
        Map<String, String> settings = BridgeInstance.settings(NAME, LocalRedis.URI);
        port = settings.get("camel.server.port");
        bridge = BridgeInstance.start(settings);
    }

    @AfterAll
    static void stopBridge() {
        bridge.close();
    }

    @Test
    void loopbackClientsAreServedWithoutAToken() {
        AdminApiClient api = new AdminApiClient("http://127.0.0.1:" + port, null);

        assertThat(api.get("/api/stats").status()).isEqualTo(200);
        assertThat(api.get("/api/messages/unknown").status()).isEqualTo(404);
        assertThat(api.delete("/api/messages/unknown").status()).isEqualTo(404);
    }

    @Test
    void otherClientsGet403ButHealthStaysOpen() throws Exception {
        Optional<InetAddress> address = nonLoopbackAddress();
        assumeTrue(address.isPresent(), "this host has no non-loopback IPv4 address to connect from");
        AdminApiClient remote = new AdminApiClient("http://" + address.get().getHostAddress() + ":" + port, null);

        Response read = remote.get("/api/stats");
        Response write = remote.delete("/api/messages/x");

        assertThat(read.status()).isEqualTo(403);
        assertThat(read.error()).contains("loopback").contains("bridge.admin.token");
        assertThat(write.status()).isEqualTo(403);
        assertThat(remote.get("/observe/health").status()).isEqualTo(200);
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
