package io.github.redisdelaybridge.deploy;

import static io.github.redisdelaybridge.deploy.YamlFiles.at;
import static io.github.redisdelaybridge.deploy.YamlFiles.text;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.redisdelaybridge.config.SettingsCheck;
import java.net.URI;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * docker-compose.yml, checked without a Docker engine against the Dockerfile and the settings the bridge
 * reads: the bridge built from the Dockerfile, every variable it gets read by the bridge, its HTTP port
 * published, its dependencies healthy before it starts, their addresses the services' own, Redis with
 * AOF, Kafka in KRaft mode with a listener for the host, a stop grace period above the shutdown timeout, a
 * fixed instance id.
 */
class ComposeFileTest {

    private final Map<String, Object> compose = YamlFiles.documents(Path.of("docker-compose.yml")).get(0);
    private final Map<String, Object> services = at(compose, "services");
    private final Map<String, Object> bridge = at(services, "bridge");
    private final Map<String, Object> environment = at(bridge, "environment");

    @Test
    void theBridgeIsBuiltFromTheDockerfile() {
        Object build = bridge.get("build");
        String context = build instanceof Map<?, ?> ? text(build, "context") : (String) build;
        String dockerfile = build instanceof Map<?, ?> && text(build, "dockerfile") != null ? text(build, "dockerfile") : "Dockerfile";
        assertThat(Path.of(context).resolve(dockerfile)).isEqualTo(Path.of(".").resolve("Dockerfile"));
    }

    @Test
    void everyVariableTheBridgeGetsIsReadByTheBridge() {
        assertThat(environment).isNotEmpty();
        environment.keySet().forEach(name -> assertThat(BridgeFacts.whyNotRead(name)).as(name).isNull());
    }

    @Test
    void theBridgeHasAFixedInstanceIdSoARestartTakesItsPartitionsBack() {
        // static group membership (docs/running.md, Several instances): generated, the id would change with every start
        String variable = SettingsCheck.environmentVariable("bridge.instance-id");
        assertThat((String) environment.get(variable)).isNotBlank().doesNotContain("$");
        assertThat(bridge).as("replicas of one service would share the id").doesNotContainKey("deploy");
    }

    @Test
    void theImageListensOnEveryInterfaceSoComposeSetsAnAdminToken() {
        // camel.server.host is loopback by default; the image opens it, and then /api answers only with a token
        assertThat(DockerfileModel.environment(DockerfileModel.read().runtime())).containsEntry("CAMEL_SERVER_HOST", "0.0.0.0");
        assertThat((String) environment.get("BRIDGE_ADMIN_TOKEN")).isNotBlank();
    }

    @Test
    void theBridgesHttpPortIsPublished() {
        int port = BridgeFacts.httpPort();
        List<String> ports = at(bridge, "ports");
        assertThat(ports).anySatisfy(mapping -> assertThat(mapping).endsWith(":" + port));
        assertThat(URI.create(DockerfileModel.read().healthcheckUrl()).getPort()).isEqualTo(port);
    }

    @Test
    void dependenciesAreHealthyBeforeTheBridgeStarts() {
        Map<String, Object> dependsOn = at(bridge, "depends_on");
        assertThat(dependsOn.keySet()).containsExactlyInAnyOrder("redis", "kafka", "rabbitmq");
        dependsOn.forEach((service, condition) -> {
            assertThat(text(condition, "condition")).as(service).isEqualTo("service_healthy");
            assertThat((Object) at(services, service, "healthcheck", "test")).as("%s has a healthcheck", service).isNotNull();
        });
    }

    @Test
    void theBridgeStopsWithinItsGracePeriod() {
        long grace = BridgeFacts.seconds(text(bridge, "stop_grace_period"));
        assertThat(grace).isGreaterThan(BridgeFacts.shutdownTimeoutSeconds());
    }

    @Test
    void redisKeepsAnAppendOnlyFileAndAnswersItsHealthcheck() {
        List<String> command = at(services, "redis", "command");
        String line = String.join(" ", command);
        assertThat(line).contains("--appendonly yes").containsPattern("--appendfsync (always|everysec)");
        assertThat(URI.create((String) environment.get("BRIDGE_REDIS_URI")).getHost()).isEqualTo("redis");
    }

    @Test
    void kafkaRunsInKraftModeWithAListenerForTheBridgeAndOneForTheHost() {
        Map<String, Object> kafka = at(services, "kafka");
        Map<String, Object> kafkaEnvironment = at(kafka, "environment");
        assertThat(text(kafkaEnvironment, "KAFKA_PROCESS_ROLES")).contains("broker").contains("controller");
        Map<String, String> advertised = listeners(text(kafkaEnvironment, "KAFKA_ADVERTISED_LISTENERS"));

        String bootstrap = (String) environment.get("BRIDGE_KAFKA_BOOTSTRAP_SERVERS");
        assertThat(advertised).as("the bridge connects to a listener the broker advertises on its service name")
                .containsValue(bootstrap);
        assertThat(bootstrap).startsWith("kafka:");

        String host = advertised.values().stream().filter(a -> a.startsWith("localhost:") || a.startsWith("127.0.0.1:"))
                .findFirst().orElseThrow(() -> new AssertionError("no listener advertised for the host: " + advertised));
        String hostPort = host.substring(host.indexOf(':') + 1);
        List<String> published = at(kafka, "ports");
        assertThat(published).as("the host listener's port is published as is").contains(hostPort + ":" + hostPort);
        Map<String, String> bound = listeners(text(kafkaEnvironment, "KAFKA_LISTENERS"));
        String hostListener = advertised.entrySet().stream().filter(e -> e.getValue().equals(host)).findFirst().orElseThrow().getKey();
        assertThat(bound.get(hostListener)).endsWith(":" + hostPort);
    }

    @Test
    void rabbitMqIsEnabledInTheBridgeWithAUserThatMayConnectFromAnotherContainer() {
        assertThat(environment.get("BRIDGE_RABBITMQ_ENABLED")).isEqualTo("true");
        assertThat(environment.get("BRIDGE_RABBITMQ_HOST")).isEqualTo("rabbitmq");
        Map<String, Object> rabbitEnvironment = at(services, "rabbitmq", "environment");
        assertThat(environment.get("BRIDGE_RABBITMQ_USERNAME")).isEqualTo(rabbitEnvironment.get("RABBITMQ_DEFAULT_USER")).isNotEqualTo("guest");
        assertThat(environment.get("BRIDGE_RABBITMQ_PASSWORD")).isEqualTo(rabbitEnvironment.get("RABBITMQ_DEFAULT_PASS"));
    }

    /** {@code NAME://host:port,...} -> NAME -> host:port. */
    private static Map<String, String> listeners(String text) {
        return Arrays.stream(text.split(",")).map(String::strip)
                .collect(java.util.stream.Collectors.toMap(l -> l.substring(0, l.indexOf("://")), l -> l.substring(l.indexOf("://") + 3)));
    }
}
