package io.github.redisdelaybridge.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.redisdelaybridge.deploy.DockerfileModel.Copy;
import io.github.redisdelaybridge.deploy.DockerfileModel.Stage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * After {@code mvn package} (this runs in verify): every file the Dockerfile's runtime stage copies from the
 * build stage exists, and the image's entry point, settings and routes are among them.
 */
class DockerfileCopiesIT {

    private final DockerfileModel dockerfile = DockerfileModel.read();

    @Test
    void everyFileCopiedFromTheBuildStageExistsAfterPackage() {
        Stage runtime = dockerfile.runtime();
        Map<String, String> environment = DockerfileModel.environment(runtime);
        String entrypoint = runtime.last("ENTRYPOINT").orElseThrow().arguments().replaceAll("[\\[\\]\"]", "").strip();
        boolean entrypointCopied = false;
        for (Copy copy : DockerfileModel.copies(runtime)) {
            if (copy.from() == null) {
                continue;
            }
            String workdir = dockerfile.stage(copy.from()).last("WORKDIR").orElseThrow().arguments();
            for (String source : copy.sources()) {
                assertThat(source).as("COPY --from=%s %s: under the build's WORKDIR", copy.from(), source).startsWith(workdir + "/");
                Path local = Path.of(source.substring(workdir.length() + 1));
                assertThat(local).as("COPY --from=%s %s after mvn package", copy.from(), source).exists();
                if (source.endsWith("/") && entrypoint.startsWith(copy.destination())) {
                    Path script = local.resolve(entrypoint.substring(copy.destination().length()));
                    assertThat(Files.isExecutable(script)).as("ENTRYPOINT %s: %s executable", entrypoint, script).isTrue();
                    entrypointCopied = true;
                }
                if (source.endsWith("/") && copy.destination().equals(environment.get("BRIDGE_HOME") + "/")) {
                    assertThat(local.resolve("config/application.properties")).exists();
                    assertThat(local.resolve("routes")).isDirectoryContaining("glob:**.yaml");
                    assertThat(local.resolve("lib")).isDirectoryContaining("glob:**.jar");
                    // the health check runs the distribution's script; the image's bill of materials is the distribution's
                    assertThat(Files.isExecutable(local.resolve(DockerfileModel.HEALTHCHECK_SCRIPT))).as("HEALTHCHECK script").isTrue();
                    assertThat(dockerfile.healthcheck()).contains(copy.destination() + DockerfileModel.HEALTHCHECK_SCRIPT);
                    assertThat(local.resolve("sbom.cdx.json")).isNotEmptyFile();
                }
            }
        }
        assertThat(entrypointCopied).as("the ENTRYPOINT script comes from a copy of the build's distribution").isTrue();
    }
}
