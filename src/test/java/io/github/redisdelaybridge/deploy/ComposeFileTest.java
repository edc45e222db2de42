package io.github.redisdelaybridge.deploy;

import static io.github.redisdelaybridge.deploy.YamlFiles.at;
import static io.github.redisdelaybridge.deploy.YamlFiles.text;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.redisdelaybridge.config.SettingsCheck;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * docker-compose.yml, checked without a Docker engine against the Dockerfile and the settings the bridge
 * reads: the bridge built from the Dockerfile, every variable it gets read by the bridge, its HTTP port
 * published, every port on loopback only, no secret with a default (each from .env, named in .env.example), Redis
 * with the documented ACL user and no passwordless default user, its dependencies healthy before it starts, their addresses the services' own, Redis with
 * AOF, Kafka in KRaft mode with a listener for the host, a stop grace period above the shutdown timeout, a
 * fixed instance id.
 */
class ComposeFileTest {

    private static final Path COMPOSE = Path.of("docker-compose.yml");

    private final Map<String, Object> compose = YamlFiles.documents(COMPOSE).get(0);
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
    void theImageListensOnEveryInterfaceSoComposeRequiresAnAdminTokenWithoutADefault() {
        // camel.server.host is loopback by default; the image opens it, and then /api answers only with a token
        assertThat(DockerfileModel.environment(DockerfileModel.read().runtime())).containsEntry("CAMEL_SERVER_HOST", "0.0.0.0");
        assertRequired((String) environment.get("BRIDGE_ADMIN_TOKEN"), "BRIDGE_ADMIN_TOKEN");
    }

    @Test
    void theBridgesHttpPortIsPublished() {
        int port = BridgeFacts.httpPort();
        List<String> ports = at(bridge, "ports");
        assertThat(ports).anySatisfy(mapping -> assertThat(mapping).endsWith(":" + port));
    }

    @Test
    void everyPortIsPublishedOnLoopbackOnly() {
        services.forEach((name, service) -> {
            List<Object> ports = at(service, "ports");
            if (ports == null) {
                return;
            }
            // short syntax HOST_IP:HOST_PORT:CONTAINER_PORT; a mapping without HOST_IP listens on every interface
            ports.forEach(mapping -> assertThat(String.valueOf(mapping)).as("%s publishes %s", name, mapping).startsWith("127.0.0.1:")
                    .matches("127\\.0\\.0\\.1:[0-9]+:[0-9]+"));
        });
    }

    @Test
    void redisAdmitsTheBridgeAsAnAclUserWithThePasswordFromTheEnvironment() {
        List<String> command = at(services, "redis", "command");
        String line = String.join(" ", command);
        assertThat(line).as("no client without a password: the default user is off").contains("--user default off");
        String prefix = BridgeFacts.shippedConfig().getProperty("bridge.redis.key-prefix").strip();
        String user = (String) environment.get("BRIDGE_REDIS_USERNAME");
        assertThat(user).isNotBlank().isNotEqualTo("default");
        int start = java.util.stream.IntStream.range(0, command.size() - 1)
                .filter(i -> command.get(i).equals("--user") && command.get(i + 1).equals(user)).findFirst()
                .orElseThrow(() -> new AssertionError("no --user " + user + " in " + line));
        List<String> rules = command.subList(start + 2, command.size()).stream().takeWhile(w -> !w.startsWith("--")).toList();
        assertThat(rules).contains("on", "resetchannels", "~" + prefix + ":*", "-@all");
        String password = rules.stream().filter(r -> r.startsWith(">")).findFirst().orElseThrow(() -> new AssertionError("no password in " + rules));
        assertRequired(password.substring(1), "REDIS_PASSWORD");
        assertThat(environment.get("BRIDGE_REDIS_PASSWORD")).isEqualTo(password.substring(1));
        // the commands docs/security.md grants (the ACL RedisTlsAclTest runs the bridge with), and Redis 7.2's additions
        List<String> granted = rules.stream().filter(r -> r.startsWith("+")).toList();
        assertThat(granted).containsExactlyInAnyOrderElementsOf(documentedAclCommands(true));
        List<String> healthcheck = at(services, "redis", "healthcheck", "test");
        assertThat(String.join(" ", healthcheck)).contains("--user " + user);
    }

    @Test
    void rabbitMqsPasswordComesFromTheEnvironment() {
        Map<String, Object> rabbitEnvironment = at(services, "rabbitmq", "environment");
        assertRequired((String) rabbitEnvironment.get("RABBITMQ_DEFAULT_PASS"), "RABBITMQ_PASSWORD");
    }

    @Test
    void theExampleEnvFileNamesEveryVariableComposeRequires() throws IOException {
        Matcher required = Pattern.compile("\\$\\{([A-Z_]+):\\?([^}]*)}").matcher(Files.readString(COMPOSE));
        Set<String> names = new TreeSet<>();
        while (required.find()) {
            names.add(required.group(1));
            assertThat(required.group(2)).as("the message for a missing %s", required.group(1)).contains(".env").contains("docs/deployment.md");
        }
        assertThat(names).contains("BRIDGE_ADMIN_TOKEN", "REDIS_PASSWORD", "RABBITMQ_PASSWORD");
        Properties example = new Properties();
        try (var reader = Files.newBufferedReader(Path.of(".env.example"))) {
            example.load(reader);
        }
        assertThat(example.stringPropertyNames()).containsExactlyInAnyOrderElementsOf(names);
        example.forEach((name, value) -> assertThat((String) value).as("%s: no usable default in the example", name).isEmpty());
        assertThat(Files.readAllLines(Path.of(".dockerignore"))).as("secrets stay out of the build context").contains(".env");
        assertThat(Files.readAllLines(Path.of(".gitignore"))).as("and out of commits").contains(".env");
    }

    /** Compose refuses to start while {@code variable} is unset or empty: no default, no literal secret. */
    private static void assertRequired(String value, String variable) {
        assertThat(value).as("%s", variable).startsWith("${" + variable + ":?").endsWith("}");
    }

    /** The + rules of docs/security.md's least-privilege ACL, and with Redis 7.2 its additions. */
    static List<String> documentedAclCommands(boolean redis72) {
        try {
            String security = Files.readString(Path.of("docs/security.md"));
            Matcher acl = Pattern.compile("ACL SETUSER bridge on >PASSWORD resetchannels ~rdb:\\* -@all ([^\n]+)").matcher(security);
            assertThat(acl.find()).as("the ACL in docs/security.md").isTrue();
            List<String> commands = new ArrayList<>(List.of(acl.group(1).strip().split(" ")));
            if (redis72) {
                Matcher additions = Pattern.compile("On Redis 7.2 and later add `([^`]+)`").matcher(security);
                assertThat(additions.find()).as("the Redis 7.2 additions in docs/security.md").isTrue();
                commands.addAll(List.of(additions.group(1).split(" ")));
            }
            return commands;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
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
        assertThat(published).as("the host listener's port is published as is").contains("127.0.0.1:" + hostPort + ":" + hostPort);
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
