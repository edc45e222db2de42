package io.github.redisdelaybridge.deploy;

import static io.github.redisdelaybridge.deploy.YamlFiles.at;
import static io.github.redisdelaybridge.deploy.YamlFiles.text;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;

/**
 * deploy/kubernetes as {@code kubectl apply -k} would apply it: rendered by kubectl's kustomize (no cluster needed),
 * every object the StatefulSet refers to is in the output (the Secret and its keys, the ConfigMap, the headless
 * Service), the image is the one kustomization.yaml sets (a registry of the user's, the project's version), and the
 * probes ask the container port the bridge listens on.
 */
class KustomizeRenderTest {

    private static final Path DIRECTORY = Path.of("deploy/kubernetes");

    private static List<Map<String, Object>> rendered;

    @BeforeAll
    @SuppressWarnings("unchecked")
    static void render() throws Exception {
        Path output = Files.createTempFile("kustomize", ".yaml");
        Process kubectl;
        try {
            kubectl = new ProcessBuilder("kubectl", "kustomize", DIRECTORY.toString()).redirectErrorStream(true)
                    .redirectOutput(output.toFile()).start();
        } catch (IOException e) {
            throw new AssertionError("kubectl is needed to render deploy/kubernetes (kubectl kustomize) and was not found: "
                    + e.getMessage(), e);
        }
        assertThat(kubectl.waitFor(120, TimeUnit.SECONDS)).as("kubectl kustomize finished").isTrue();
        String yaml = Files.readString(output, StandardCharsets.UTF_8);
        assertThat(kubectl.exitValue()).as("kubectl kustomize %s:%n%s", DIRECTORY, yaml).isZero();
        rendered = new ArrayList<>();
        for (Object document : new Load(LoadSettings.builder().build()).loadAllFromString(yaml)) {
            if (document != null) {
                rendered.add((Map<String, Object>) document);
            }
        }
    }

    @Test
    void everySecretKeyTheStatefulSetRequiresIsInARenderedSecret() {
        List<Map<String, Object>> env = at(container(), "env");
        List<Map<String, Object>> references = env.stream().filter(v -> at(v, "valueFrom", "secretKeyRef") != null).toList();
        assertThat(references).isNotEmpty();
        for (Map<String, Object> variable : references) {
            Map<String, Object> reference = at(variable, "valueFrom", "secretKeyRef");
            if (Boolean.TRUE.equals(reference.get("optional"))) {
                continue;
            }
            Map<String, Object> secret = named("Secret", (String) reference.get("name"));
            Map<String, Object> data = at(secret, "data");
            assertThat(data).as("%s: key %s of Secret %s", variable.get("name"), reference.get("key"), reference.get("name"))
                    .containsKey((String) reference.get("key"));
        }
    }

    @Test
    void theExampleSecretNeitherOpensTheAdminApiNorHoldsAPassword() {
        Map<String, Object> secret = one("Secret");
        Map<String, Object> data = at(secret, "data");
        // an empty token: /api answers 403 beyond loopback until a token of the user's is set
        assertThat(decoded(data, "admin-token")).isEmpty();
        String redisUri = decoded(data, "redis-uri");
        assertThat(redisUri).startsWith("redis").doesNotContain("@");
    }

    @Test
    void everyConfigMapTheStatefulSetReadsIsRendered() {
        List<Map<String, Object>> envFrom = at(container(), "envFrom");
        for (Map<String, Object> from : envFrom) {
            String name = text(from, "configMapRef", "name");
            if (name != null) {
                assertThat(named("ConfigMap", name)).isNotNull();
            }
        }
        List<Map<String, Object>> env = at(container(), "env");
        env.stream().filter(v -> at(v, "valueFrom", "configMapKeyRef") != null).forEach(v -> {
            Map<String, Object> configMap = named("ConfigMap", text(v, "valueFrom", "configMapKeyRef", "name"));
            assertThat((Map<String, Object>) at(configMap, "data")).containsKey(text(v, "valueFrom", "configMapKeyRef", "key"));
        });
        assertThat(named("Service", text(one("StatefulSet"), "spec", "serviceName"))).isNotNull();
    }

    @Test
    void theImageIsTheOneKustomizationSetsOnARegistryOfTheUsers() {
        Map<String, Object> kustomization = YamlFiles.documents(DIRECTORY.resolve("kustomization.yaml")).get(0);
        List<Map<String, Object>> images = at(kustomization, "images");
        assertThat(images).singleElement().satisfies(image -> {
            String reference = text(image, "newName") + ":" + text(image, "newTag");
            assertThat(text(container(), "image")).isEqualTo(reference);
            // a bare name resolves to Docker Hub, where no such image is published
            assertThat(text(image, "newName")).as("a registry host").matches("[a-z0-9.-]+\\.[a-z]+(:[0-9]+)?/.+");
            assertThat(text(image, "newTag")).isEqualTo(BridgeFacts.projectVersion());
        });
    }

    @Test
    void probesAskTheContainerPortTheBridgeListensOn() {
        Map<String, Object> container = container();
        int port = bridgePort(container);
        List<Map<String, Object>> ports = at(container, "ports");
        for (String probe : List.of("livenessProbe", "readinessProbe", "startupProbe")) {
            Object probePort = at(container, probe, "httpGet", "port");
            Object resolved = probePort instanceof String name ? ports.stream().filter(p -> name.equals(p.get("name")))
                    .map(p -> p.get("containerPort")).findFirst().orElseThrow(() -> new AssertionError(probe + ": no port named " + name))
                    : probePort;
            assertThat(resolved).as("%s port", probe).isEqualTo(port);
        }
        Map<String, Object> service = one("Service");
        List<Map<String, Object>> servicePorts = at(service, "spec", "ports");
        servicePorts.forEach(p -> assertThat(ports).anySatisfy(c -> assertThat(p.get("targetPort")).isIn(c.get("name"), c.get("containerPort"))));
    }

    /** camel.server.port as the container gets it: -D in JAVA_OPTS, else the shipped configuration. */
    private static int bridgePort(Map<String, Object> container) {
        List<Map<String, Object>> env = at(container, "env");
        String javaOpts = env.stream().filter(v -> "JAVA_OPTS".equals(v.get("name"))).map(v -> (String) v.get("value")).findFirst().orElse("");
        Matcher m = Pattern.compile("-Dcamel\\.(?:management|server)\\.port=([0-9]+)").matcher(javaOpts);
        return m.find() ? Integer.parseInt(m.group(1)) : BridgeFacts.httpPort();
    }

    private static String decoded(Map<String, Object> data, String key) {
        assertThat(data).containsKey(key);
        return new String(Base64.getDecoder().decode((String) data.get(key)), StandardCharsets.UTF_8);
    }

    private static Map<String, Object> container() {
        List<Map<String, Object>> containers = at(one("StatefulSet"), "spec", "template", "spec", "containers");
        return containers.get(0);
    }

    private static Map<String, Object> one(String kind) {
        List<Map<String, Object>> found = rendered.stream().filter(r -> kind.equals(r.get("kind"))).toList();
        assertThat(found).as("%s rendered from %s", kind, DIRECTORY).hasSize(1);
        return found.get(0);
    }

    private static Map<String, Object> named(String kind, String name) {
        return rendered.stream().filter(r -> kind.equals(r.get("kind")) && name.equals(text(r, "metadata", "name"))).findFirst()
                .orElseThrow(() -> new AssertionError("no " + kind + " " + name + " rendered from " + DIRECTORY + " (kubectl apply -k would"
                        + " leave the pods waiting for it)"));
    }
}
