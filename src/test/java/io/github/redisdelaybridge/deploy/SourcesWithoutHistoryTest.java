package io.github.redisdelaybridge.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Sources, scripts, deployment files and the benchmark's output say what the product does and why, not the story of
 * how it got there: no issue or session numbers in them (the docs are held to the same by
 * {@link ConfigurationReferenceTest}), and every benchmark row is named by what it measures, not numbered.
 */
class SourcesWithoutHistoryTest {

    /** Where the code, the scripts and the deployment files live. */
    private static final List<Path> ROOTS = List.of(Path.of("src"), Path.of("bin"), Path.of("deploy"), Path.of("config"),
            Path.of("routes"), Path.of(".ci"), Path.of("Dockerfile"), Path.of("docker-compose.yml"));
    private static final Pattern HISTORY = Pattern.compile("(?i)\\b(?:sessions?|issues?)[\\s-]+#?\\d");
    /** A row of the benchmark's table whose name starts with a number ("1. ingest", "16.2 RabbitMQ delivery"). */
    private static final Pattern NUMBERED_ROW = Pattern.compile("table\\.add\\(\\s*(?:String\\.format\\(\\s*)?\"\\d");
    private static final Path BENCHMARK = Path.of("src/test/java/io/github/redisdelaybridge/benchmark");

    @Test
    void noIssueOrSessionNumbersInSourcesScriptsOrDeploymentFiles() {
        List<String> found = new ArrayList<>();
        for (Path file : textFiles(ROOTS)) {
            List<String> lines = lines(file);
            for (int i = 0; i < lines.size(); i++) {
                Matcher history = HISTORY.matcher(lines.get(i));
                if (history.find()) {
                    found.add(file + ":" + (i + 1) + ": " + history.group());
                }
            }
        }
        assertThat(found).as("issue or session numbers").isEmpty();
    }

    @Test
    void everyBenchmarkRowIsNamedByWhatItMeasures() {
        List<Path> sources = textFiles(List.of(BENCHMARK));
        assertThat(sources).as("the benchmark's sources").isNotEmpty();
        List<String> numbered = new ArrayList<>();
        for (Path file : sources) {
            Matcher row = NUMBERED_ROW.matcher(String.join("\n", lines(file)));
            while (row.find()) {
                numbered.add(file + ": " + row.group());
            }
        }
        assertThat(numbered).as("benchmark rows named by a number").isEmpty();
    }

    private static List<Path> textFiles(List<Path> roots) {
        List<Path> files = new ArrayList<>();
        for (Path root : roots) {
            assertThat(root).as("a root of the checkout").exists();
            try (Stream<Path> walk = Files.walk(root)) {
                walk.filter(Files::isRegularFile).filter(SourcesWithoutHistoryTest::isText).sorted().forEach(files::add);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return files;
    }

    /** Images and other binary files (a NUL byte in the first 8 KiB) are not read. */
    private static boolean isText(Path file) {
        try (var in = Files.newInputStream(file)) {
            byte[] head = in.readNBytes(8192);
            for (byte b : head) {
                if (b == 0) {
                    return false;
                }
            }
            return true;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<String> lines(Path file) {
        try {
            return List.of(new String(Files.readAllBytes(file), StandardCharsets.UTF_8).split("\n", -1));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
