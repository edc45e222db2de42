package io.github.redisdelaybridge.deploy;

import static io.github.redisdelaybridge.deploy.YamlFiles.at;
import static io.github.redisdelaybridge.deploy.YamlFiles.text;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.redisdelaybridge.testkit.BridgeInstance;
import io.github.redisdelaybridge.testkit.LocalRedis;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The health paths that the image's HEALTHCHECK and the Kubernetes probes ask answer 200 on the bridge's
 * real routes (a bridge with the shipped configuration, the local Redis and the embedded Kafka), from a
 * non-loopback address of this host as the kubelet would ask, when the host has one.
 */
class ProbeEndpointsTest {

    private static final String NAME = "probe-endpoints";

    private static BridgeInstance bridge;
    private static String port;

    @BeforeAll
    static void startBridge() {
        LocalRedis.deleteKeys("test-" + NAME);
        Map<String, String> settings = BridgeInstance.settings(NAME, LocalRedis.URI);
        // as the image and the ConfigMap set it (camel.server.host is loopback by default)
        settings.put("camel.server.host", "0.0.0.0");
        port = settings.get("camel.server.port");
        bridge = BridgeInstance.start(settings);
    }

    @AfterAll
    static void stopBridge() {
        bridge.close();
        LocalRedis.deleteKeys("test-" + NAME);
    }

    @Test
    void everyProbePathAnswers200() throws Exception {
        TreeSet<String> paths = new TreeSet<>();
        paths.add(DockerfileModel.readinessPath());
        Map<String, Object> statefulSet = YamlFiles.documents(Path.of("deploy/kubernetes/statefulset.yaml")).get(0);
        List<Map<String, Object>> containers = at(statefulSet, "spec", "template", "spec", "containers");
        for (String probe : List.of("livenessProbe", "readinessProbe", "startupProbe")) {
            paths.add(text(containers.get(0), probe, "httpGet", "path"));
        }
        assertThat(paths).hasSizeGreaterThanOrEqualTo(2);

        String host = nonLoopbackAddress();
        for (String path : paths) {
            assertThat(get(host, path)).as("GET http://%s:%s%s", host, port, path).isEqualTo(200);
        }
        assertThat(get(host, "/observe/health/no-such-probe")).as("a path the bridge does not serve").isNotEqualTo(200);
    }

    private static int get(String host, String path) throws Exception {
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        // readiness may lag the start by a health-check round: retry for a while
        long deadline = System.currentTimeMillis() + 30_000;
        int status;
        do {
            status = client.send(HttpRequest.newBuilder(URI.create("http://" + host + ":" + port + path)).timeout(Duration.ofSeconds(10)).build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode();
            if (status == 200 || path.contains("no-such")) {
                return status;
            }
            Thread.sleep(500);
        } while (System.currentTimeMillis() < deadline);
        return status;
    }

    private static String nonLoopbackAddress() throws Exception {
        for (NetworkInterface networkInterface : Collections.list(NetworkInterface.getNetworkInterfaces())) {
            if (networkInterface.isUp() && !networkInterface.isLoopback()) {
                for (InetAddress address : Collections.list(networkInterface.getInetAddresses())) {
                    if (address instanceof Inet4Address && !address.isLinkLocalAddress()) {
                        return address.getHostAddress();
                    }
                }
            }
        }
        return "127.0.0.1";
    }
}
