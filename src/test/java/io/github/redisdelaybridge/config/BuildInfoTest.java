package io.github.redisdelaybridge.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * What {@code --version} says a build is: its version and the commit it was built from, so that a running bridge
 * names the source it came from; a build without a commit says "unknown" rather than a placeholder.
 */
class BuildInfoTest {

    @Test
    void thisBuildNamesTheCommitOfItsCheckout() throws Exception {
        BuildInfo build = BuildInfo.current();
        String head = git("rev-parse", "HEAD");

        assertThat(build.version()).isNotBlank().doesNotContain("${");
        if (head == null) {
            // built from a source tarball: no repository to ask
            assertThat(build.commit()).isEqualTo("unknown");
        } else {
            assertThat(build.commit()).matches(head + "(-dirty)?");
        }
    }

    @Test
    void aCommitTheBuildCouldNotFillIsUnknown() throws IOException {
        BuildInfo build = BuildInfo.from(properties("version=0.1.0\ncommit=${git.commit.id}\ndirty=${git.dirty}\n"), null);

        assertThat(build).isEqualTo(new BuildInfo("0.1.0", "unknown"));
    }

    @Test
    void aBuildWithLocalChangesSaysSo() throws IOException {
        BuildInfo build = BuildInfo.from(properties("version=0.1.0\ncommit=0123456789abcdef0123456789abcdef01234567\ndirty=true\n"), null);

        assertThat(build.commit()).isEqualTo("0123456789abcdef0123456789abcdef01234567-dirty");
    }

    @Test
    void withoutItsResourceTheManifestsVersionCounts() {
        assertThat(BuildInfo.from(null, "0.2.0")).isEqualTo(new BuildInfo("0.2.0", "unknown"));
        assertThat(BuildInfo.from(null, null)).isEqualTo(new BuildInfo("unknown", "unknown"));
    }

    private static Properties properties(String text) throws IOException {
        Properties properties = new Properties();
        properties.load(new StringReader(text));
        return properties;
    }

    /** git's answer, or null where there is no repository (or no git). */
    private static String git(String... arguments) throws InterruptedException {
        try {
            java.util.List<String> command = new java.util.ArrayList<>(java.util.List.of("git"));
            command.addAll(java.util.List.of(arguments));
            Path out = Files.createTempFile("git", ".out");
            Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile()).start();
            if (!process.waitFor(30, TimeUnit.SECONDS) || process.exitValue() != 0) {
                return null;
            }
            return Files.readString(out, StandardCharsets.UTF_8).strip();
        } catch (IOException e) {
            return null;
        }
    }
}
