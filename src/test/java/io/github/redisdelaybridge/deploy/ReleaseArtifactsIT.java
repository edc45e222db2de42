package io.github.redisdelaybridge.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * What {@code mvn package} leaves for a release (docs/deployment.md, Cutting a release): the archive and the bill of
 * materials, each with a SHA-256 file in sha256sum's format that matches it; the bill of materials (CycloneDX) names
 * every jar the distribution runs, with its version, and ships inside the distribution too.
 */
class ReleaseArtifactsIT {

    private static final Path DISTRIBUTION = Path.of(System.getProperty("it.distribution", "target/redis-delay-bridge")).toAbsolutePath();
    private static final Path TARGET = DISTRIBUTION.getParent();
    private static final String BASE = "redis-delay-bridge-" + System.getProperty("it.version", "");

    @Test
    void theArchiveAndTheBillOfMaterialsHaveMatchingChecksums() throws Exception {
        for (String file : List.of(BASE + "-bin.tar.gz", BASE + "-sbom.json")) {
            Path checksum = TARGET.resolve(file + ".sha256");
            assertThat(checksum).as("SHA-256 of %s", file).exists();
            String expected = sha256(TARGET.resolve(file)) + "  " + file;
            assertThat(Files.readString(checksum, StandardCharsets.UTF_8).strip()).isEqualTo(expected);
        }
    }

    @Test
    void theBillOfMaterialsNamesEveryJarTheDistributionRuns() throws IOException {
        JsonNode bom = new ObjectMapper().readTree(TARGET.resolve(BASE + "-sbom.json").toFile());
        assertThat(bom.path("bomFormat").asText()).isEqualTo("CycloneDX");
        assertThat(bom.path("metadata").path("component").path("name").asText()).isEqualTo("redis-delay-bridge");
        assertThat(bom.path("metadata").path("component").path("version").asText()).isEqualTo(System.getProperty("it.version"));
        Set<String> components = new TreeSet<>();
        bom.path("components").forEach(c -> {
            components.add(c.path("name").asText() + "-" + c.path("version").asText() + ".jar");
            assertThat(c.path("hashes").size()).as("hashes of %s", c.path("name").asText()).isPositive();
        });
        try (Stream<Path> jars = Files.list(DISTRIBUTION.resolve("lib"))) {
            List<String> names = jars.map(j -> j.getFileName().toString()).toList();
            assertThat(names).isNotEmpty();
            assertThat(components).containsAll(names);
        }
        assertThat(DISTRIBUTION.resolve("sbom.cdx.json")).hasSameBinaryContentAs(TARGET.resolve(BASE + "-sbom.json"));
    }

    private static String sha256(Path file) throws Exception {
        MessageDigest digest = MessageDigest.getInstance("SHA-256");
        try (InputStream in = Files.newInputStream(file)) {
            byte[] buffer = new byte[65536];
            for (int n = in.read(buffer); n > 0; n = in.read(buffer)) {
                digest.update(buffer, 0, n);
            }
        }
        return HexFormat.of().formatHex(digest.digest());
    }
}
