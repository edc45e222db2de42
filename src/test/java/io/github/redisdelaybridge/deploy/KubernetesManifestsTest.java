package io.github.redisdelaybridge.deploy;

import static io.github.redisdelaybridge.deploy.YamlFiles.at;
import static io.github.redisdelaybridge.deploy.YamlFiles.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNoException;

import io.github.redisdelaybridge.admin.AdminAuthorizer;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.camel.Exchange;
import org.apache.camel.impl.DefaultCamelContext;
import org.apache.camel.support.DefaultExchange;
import org.junit.jupiter.api.Test;

/**
 * deploy/kubernetes: every file parses, kustomization lists them all, and the StatefulSet agrees with the
 * bridge: probes on its health endpoints and HTTP port (that those paths answer: ProbeEndpointsTest),
 * every variable (set directly, from the ConfigMap or from the Secret) read by the bridge, the instance id
 * from the pod name, a grace period above the shutdown timeout, resource requests, a non-root user; the
 * PodDisruptionBudget selects its pods, its headless Service names their HTTP port.
 */
class KubernetesManifestsTest {

    private static final Path DIRECTORY = Path.of("deploy/kubernetes");

    private final List<Map<String, Object>> resources = resources();
    private final Map<String, Object> statefulSet = one("StatefulSet");
    private final Map<String, Object> pod = at(statefulSet, "spec", "template", "spec");
    private final Map<String, Object> container = container();

    @Test
    void kustomizationListsEveryManifest() throws IOException {
        Map<String, Object> kustomization = YamlFiles.documents(DIRECTORY.resolve("kustomization.yaml")).get(0);
        List<String> listed = at(kustomization, "resources");
        try (Stream<Path> files = Files.list(DIRECTORY)) {
            assertThat(listed).containsExactlyInAnyOrderElementsOf(files.map(f -> f.getFileName().toString())
                    .filter(name -> name.endsWith(".yaml") && !name.equals("kustomization.yaml")).toList());
        }
        assertThat(resources).extracting(r -> r.get("kind")).contains("StatefulSet", "Service", "ConfigMap", "PodDisruptionBudget");
    }

    @Test
    void probesAskTheBridgesHealthEndpointsOnItsHttpPort() {
        int port = BridgeFacts.httpPort();
        List<Map<String, Object>> ports = at(container, "ports");
        Map<String, Object> http = ports.stream().filter(p -> Integer.valueOf(port).equals(p.get("containerPort"))).findFirst()
                .orElseThrow(() -> new AssertionError("no containerPort " + port + " in " + ports));
        for (String probe : List.of("livenessProbe", "readinessProbe", "startupProbe")) {
            Object probePort = at(container, probe, "httpGet", "port");
            assertThat(probePort).as(probe + " port").isIn(port, http.get("name"));
        }
        assertThat(text(container, "livenessProbe", "httpGet", "path")).isEqualTo("/observe/health/live");
        assertThat(text(container, "readinessProbe", "httpGet", "path"))
                .as("readiness as the image's HEALTHCHECK").isEqualTo(DockerfileModel.readinessPath());
    }

    @Test
    void everyVariableIsReadByTheBridge() {
        List<String> names = new ArrayList<>();
        List<Map<String, Object>> env = at(container, "env");
        env.forEach(variable -> names.add((String) variable.get("name")));
        List<Map<String, Object>> envFrom = at(container, "envFrom");
        Map<String, Object> configMap = one("ConfigMap");
        assertThat(envFrom).extracting(from -> text(from, "configMapRef", "name")).contains(text(configMap, "metadata", "name"));
        Map<String, Object> data = at(configMap, "data");
        names.addAll(data.keySet());

        assertThat(names).doesNotHaveDuplicates();
        names.forEach(name -> assertThat(BridgeFacts.whyNotRead(name)).as(name).isNull());
    }

    @Test
    void secretsComeFromSecretKeyReferences() {
        List<Map<String, Object>> env = at(container, "env");
        List<Map<String, Object>> fromSecrets = env.stream().filter(v -> at(v, "valueFrom", "secretKeyRef") != null).toList();
        assertThat(fromSecrets).extracting(v -> v.get("name")).contains("BRIDGE_REDIS_URI", "BRIDGE_ADMIN_TOKEN");
        fromSecrets.forEach(v -> {
            assertThat(text(v, "valueFrom", "secretKeyRef", "name")).as("%s: secret name", v.get("name")).isNotBlank();
            assertThat(text(v, "valueFrom", "secretKeyRef", "key")).as("%s: secret key", v.get("name")).isNotBlank();
        });
        Map<String, Object> data = at(one("ConfigMap"), "data");
        assertThat(data.keySet()).as("no secret in the ConfigMap").noneMatch(k -> k.contains("PASSWORD") || k.contains("TOKEN") || k.equals("BRIDGE_REDIS_URI"));
    }

    @Test
    void theHttpServerListensOnThePodsAddressTogetherWithARequiredAdminToken() {
        // camel.server.host is loopback by default; beyond loopback /api answers only with a token
        Map<String, Object> data = at(one("ConfigMap"), "data");
        assertThat(data).containsEntry("CAMEL_SERVER_HOST", "0.0.0.0");
        List<Map<String, Object>> env = at(container, "env");
        Map<String, Object> token = env.stream().filter(v -> "BRIDGE_ADMIN_TOKEN".equals(v.get("name"))).findFirst().orElseThrow();
        assertThat((Object) at(token, "valueFrom", "secretKeyRef", "optional")).as("the admin token is required").isNotEqualTo(true);
    }

    @Test
    void theAdminApiAnswersToTheServiceAndPodNames() throws IOException {
        // beyond loopback names, /api and /console/ answer only to the Host names of bridge.admin.allowed-hosts
        Map<String, Object> data = at(one("ConfigMap"), "data");
        List<String> allowed = List.of(String.valueOf(data.get("BRIDGE_ADMIN_ALLOWED_HOSTS")).split(","));
        AdminAuthorizer authorizer = new AdminAuthorizer("t0ken", "", "0.0.0.0", AdminAuthorizer.allowedHosts(allowed));
        String service = text(one("Service"), "metadata", "name");
        String firstPod = text(statefulSet, "metadata", "name") + "-0." + service;
        try (DefaultCamelContext context = new DefaultCamelContext()) {
            for (String host : List.of(service + ":" + BridgeFacts.httpPort(), firstPod + ":" + BridgeFacts.httpPort(), "localhost:8080")) {
                Exchange request = new DefaultExchange(context);
                request.getMessage().setHeader("Host", host);
                assertThatNoException().as(host).isThrownBy(() -> authorizer.authorizePage(request));
            }
        }
    }

    @Test
    void podsStopGracefullyAndRequestResources() {
        assertThat(((Number) pod.get("terminationGracePeriodSeconds")).longValue()).isGreaterThan(BridgeFacts.shutdownTimeoutSeconds());
        assertThat(text(container, "resources", "requests", "cpu")).isNotBlank();
        assertThat(text(container, "resources", "requests", "memory")).isNotBlank();
        assertThat(text(container, "resources", "limits", "memory")).isNotBlank();
        assertThat((Object) at(pod, "securityContext", "runAsNonRoot")).isEqualTo(true);
        assertThat((Object) pod.get("enableServiceLinks")).as("no <SERVICE>_PORT variables from other services").isEqualTo(false);
    }

    @Test
    void theDisruptionBudgetSelectsTheDeploymentsPods() {
        Map<String, Object> budget = one("PodDisruptionBudget");
        Map<String, Object> selector = at(budget, "spec", "selector", "matchLabels");
        Map<String, Object> labels = at(statefulSet, "spec", "template", "metadata", "labels");
        assertThat(labels).containsAllEntriesOf(selector);
        assertThat((Object) at(statefulSet, "spec", "selector", "matchLabels")).isEqualTo(selector);
        assertThat(at(budget, "spec", "maxUnavailable") != null || at(budget, "spec", "minAvailable") != null).isTrue();
        assertThat(((Number) at(statefulSet, "spec", "replicas")).intValue()).isGreaterThan(1);
    }

    @Test
    void eachPodsInstanceIdIsItsNameUniqueAndStableAcrossRestarts() {
        // static group membership (docs/running.md, Several instances): a Deployment's pod names change with every pod
        List<Map<String, Object>> env = at(container, "env");
        Map<String, Object> instanceId = env.stream().filter(v -> BridgeFacts.variables().get((String) v.get("name")) != null
                        && BridgeFacts.variables().get((String) v.get("name")).equals("bridge.instance-id"))
                .findFirst().orElseThrow(() -> new AssertionError("no variable sets bridge.instance-id"));
        assertThat(text(instanceId, "valueFrom", "fieldRef", "fieldPath")).isEqualTo("metadata.name");
        Map<String, Object> data = at(one("ConfigMap"), "data");
        assertThat(data).as("one id for every pod").doesNotContainKey((String) instanceId.get("name"));
    }

    @Test
    void theHeadlessServiceTheStatefulSetNamesSelectsItsPodsHttpPort() {
        Map<String, Object> service = one("Service");
        assertThat(text(statefulSet, "spec", "serviceName")).isEqualTo(text(service, "metadata", "name"));
        assertThat(text(service, "spec", "clusterIP")).isEqualTo("None");
        Map<String, Object> labels = at(statefulSet, "spec", "template", "metadata", "labels");
        assertThat(labels).containsAllEntriesOf(at(service, "spec", "selector"));
        List<Map<String, Object>> ports = at(service, "spec", "ports");
        assertThat(ports).singleElement().satisfies(port -> assertThat(port.get("targetPort")).isIn("http", BridgeFacts.httpPort()));
    }

    private static List<Map<String, Object>> resources() {
        try (Stream<Path> files = Files.list(DIRECTORY)) {
            return files.filter(f -> f.toString().endsWith(".yaml") && !f.getFileName().toString().equals("kustomization.yaml"))
                    .sorted().flatMap(f -> YamlFiles.documents(f).stream()).toList();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private Map<String, Object> one(String kind) {
        List<Map<String, Object>> found = resources.stream().filter(r -> kind.equals(r.get("kind"))).toList();
        assertThat(found).as("%s in %s", kind, DIRECTORY).hasSize(1);
        return found.get(0);
    }

    private Map<String, Object> container() {
        List<Map<String, Object>> containers = at(pod, "containers");
        assertThat(containers).hasSize(1);
        return containers.get(0);
    }
}
