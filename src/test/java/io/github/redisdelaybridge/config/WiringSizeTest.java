package io.github.redisdelaybridge.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * config/ stays readable: one wiring class per area, each under 150 lines, and no file over 300 lines, so a newcomer finds
 * what an area builds, and in which order, in one short file.
 */
class WiringSizeTest {

    private static final Path CONFIG = Path.of("src/main/java/io/github/redisdelaybridge/config");

    @Test
    void eachAreasWiringIsUnder150Lines() throws IOException {
        Map<String, Integer> wiring = lineCounts(name -> name.endsWith("Wiring.java"));
        assertThat(wiring.keySet()).as("the areas' wiring classes").contains("MetricsWiring.java", "StoreWiring.java", "KafkaWiring.java",
                "RabbitMqWiring.java", "DispatchWiring.java", "InboundWiring.java", "AdminWiring.java", "HealthWiring.java");
        assertThat(wiring).allSatisfy((file, lines) -> assertThat(lines).as(file).isLessThan(150));
        assertThat(lineCounts(name -> name.equals("BridgeBeans.java")).get("BridgeBeans.java")).as("the composition root").isLessThan(150);
    }

    @Test
    void noFileIsOver300Lines() throws IOException {
        assertThat(lineCounts(name -> true)).allSatisfy((file, lines) -> assertThat(lines).as(file).isLessThanOrEqualTo(300));
    }

    private static Map<String, Integer> lineCounts(java.util.function.Predicate<String> names) throws IOException {
        Map<String, Integer> counts = new TreeMap<>();
        try (Stream<Path> files = Files.list(CONFIG)) {
            for (Path file : files.filter(f -> names.test(f.getFileName().toString())).toList()) {
                List<String> lines = Files.readAllLines(file);
                counts.put(file.getFileName().toString(), lines.size());
            }
        }
        return counts;
    }
}
