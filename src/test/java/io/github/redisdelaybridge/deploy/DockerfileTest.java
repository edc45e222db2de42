package io.github.redisdelaybridge.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.redisdelaybridge.deploy.DockerfileModel.Copy;
import io.github.redisdelaybridge.deploy.DockerfileModel.Stage;
import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The Dockerfile, checked without a Docker engine: a Maven build stage, a Java 17 JRE runtime as a
 * non-root user, the bridge's HTTP port exposed and health-checked on readiness, short GC pauses, every
 * variable it sets read by the bridge. That the files the runtime copies from the build exist after
 * {@code mvn package} is DockerfileCopiesIT's part.
 */
class DockerfileTest {

    private final DockerfileModel dockerfile = DockerfileModel.read();

    @Test
    void buildsWithMavenAndRunsOnAJava17Jre() {
        assertThat(dockerfile.stages()).hasSizeGreaterThanOrEqualTo(2);
        Stage build = dockerfile.stages().get(0);
        assertThat(build.image()).startsWith("maven:").contains("17");
        assertThat(build.name()).isNotNull();
        assertThat(build.all("RUN")).anySatisfy(run -> assertThat(run.arguments()).contains("mvn").contains("package"));
        assertThat(dockerfile.runtime().image()).matches("eclipse-temurin:17[.0-9]*-jre.*");
    }

    @Test
    void runtimeRunsAsANonRootUser() {
        String user = dockerfile.runtime().last("USER").orElseThrow(() -> new AssertionError("no USER")).arguments();
        String uid = user.split(":")[0];
        assertThat(uid).as("USER %s: numeric, so that Kubernetes' runAsNonRoot can verify it", user).matches("[0-9]+");
        assertThat(Integer.parseInt(uid)).isNotZero();
    }

    @Test
    void exposesTheBridgesHttpPortAndChecksReadinessOnThePortTheBridgeIsGiven() {
        int port = BridgeFacts.httpPort();
        assertThat(dockerfile.runtime().all("EXPOSE")).extracting(i -> i.arguments()).contains(Integer.toString(port));

        // the port is the bridge's setting, read by the script (HealthcheckScriptTest), never written here
        String home = DockerfileModel.environment(dockerfile.runtime()).get("BRIDGE_HOME");
        assertThat(dockerfile.healthcheck()).contains("CMD").contains(home + "/" + DockerfileModel.HEALTHCHECK_SCRIPT)
                .doesNotContainPattern(":[0-9]{2,5}\\b");
        // that this path answers on the bridge's routes: ProbeEndpointsTest
        assertThat(DockerfileModel.readinessPath()).isEqualTo("/observe/health/ready");
        assertThat(dockerfile.runtime().all("RUN")).as("the health check's curl is installed")
                .anySatisfy(run -> assertThat(run.arguments()).contains("install").contains("curl"));
    }

    @Test
    void theImageSaysWhatItIsInOciLabelsFromBuildArguments() throws IOException {
        Map<String, String> labels = DockerfileModel.labels(dockerfile.runtime());
        Map<String, String> arguments = DockerfileModel.buildArguments(dockerfile.runtime());
        for (String label : List.of("version", "revision", "created", "source")) {
            String value = labels.get("org.opencontainers.image." + label);
            assertThat(value).as("label org.opencontainers.image.%s", label).isNotNull().matches("\\$\\{?[A-Z_]+}?");
            assertThat(arguments).as("the build argument label %s reads", label).containsKey(value.replaceAll("[${}]", ""));
        }
        assertThat(labels).containsEntry("org.opencontainers.image.title", "redis-delay-bridge");
        // a build without --build-arg VERSION still names the version it builds
        String version = labels.get("org.opencontainers.image.version").replaceAll("[${}]", "");
        assertThat(arguments.get(version)).isEqualTo(BridgeFacts.projectVersion());
        // the commit reaches the bridge's version output too: the build stage has no .git
        String revision = labels.get("org.opencontainers.image.revision").replaceAll("[${}]", "");
        assertThat(DockerfileModel.buildArguments(dockerfile.stages().get(0))).containsKey(revision);
        assertThat(dockerfile.stages().get(0).all("RUN")).anySatisfy(run -> assertThat(run.arguments())
                .contains("mvn").contains("-Dgit.commit.id=${" + revision + "}"));
    }

    @Test
    void startsTheDistributionsScriptInExecForm() {
        String entrypoint = dockerfile.runtime().last("ENTRYPOINT").orElseThrow(() -> new AssertionError("no ENTRYPOINT")).arguments();
        assertThat(entrypoint).as("exec form: the JVM gets docker stop's SIGTERM").startsWith("[").endsWith("]");
        assertThat(entrypoint).contains("/bin/redis-delay-bridge");
        String home = DockerfileModel.environment(dockerfile.runtime()).get("BRIDGE_HOME");
        assertThat(entrypoint).contains(home + "/bin/");
        assertThat(DockerfileModel.copies(dockerfile.runtime())).anySatisfy(copy -> assertThat(copy.destination()).startsWith(home));
    }

    @Test
    void everyVariableItSetsIsReadByTheBridge() {
        Map<String, String> environment = DockerfileModel.environment(dockerfile.runtime());
        assertThat(environment).isNotEmpty();
        environment.keySet().forEach(name -> assertThat(BridgeFacts.whyNotRead(name)).as(name).isNull());
    }

    @Test
    void jvmOptionsAskForShortAndRareGcPauses() {
        String javaOpts = DockerfileModel.environment(dockerfile.runtime()).get("JAVA_OPTS");
        assertThat(javaOpts).contains("-XX:+UseG1GC").contains("-XX:MaxGCPauseMillis=10").contains("-XX:NewRatio=2")
                .contains("-XX:MaxRAMPercentage=");
    }

    @Test
    void everyFileTheBuildStageCopiesIsInTheRepositoryAndNotDockerIgnored() throws IOException {
        List<String> ignored = Files.readAllLines(Path.of(".dockerignore")).stream()
                .map(String::strip).filter(line -> !line.isEmpty() && !line.startsWith("#")).toList();
        for (Stage stage : dockerfile.stages()) {
            for (Copy copy : DockerfileModel.copies(stage)) {
                if (copy.from() != null) {
                    continue;
                }
                for (String source : copy.sources()) {
                    Path path = Path.of(source);
                    assertThat(path).as("COPY %s", source).exists();
                    for (String pattern : ignored) {
                        assertThat(FileSystems.getDefault().getPathMatcher("glob:" + pattern).matches(path.normalize()))
                                .as("COPY %s is excluded by .dockerignore's %s", source, pattern).isFalse();
                    }
                }
            }
        }
    }

    @Test
    void theRuntimeCopiesTheDistributionFromTheBuildStage() {
        List<Copy> fromBuild = DockerfileModel.copies(dockerfile.runtime()).stream().filter(c -> c.from() != null).toList();
        assertThat(fromBuild).isNotEmpty();
        fromBuild.forEach(copy -> assertThat(dockerfile.stage(copy.from())).isNotNull());
        assertThat(fromBuild).anySatisfy(copy -> assertThat(copy.sources()).anySatisfy(s -> assertThat(s).endsWith("target/redis-delay-bridge/")));
    }
}
