package io.github.redisdelaybridge.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.redisdelaybridge.testkit.MetricTable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * deploy/prometheus/alerts.yml is valid ({@code promtool check rules}), its tests pass ({@code promtool test rules}), each
 * alert is made to fire and then to clear by them, each is in docs/observe.md, and each metric it asks for is documented.
 * promtool must be installed (Debian's {@code prometheus} package): without it this test fails, it does not skip.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class PrometheusRulesTest {

    private static final Path RULES = Path.of("deploy/prometheus/alerts.yml");
    private static final Path RULE_TESTS = Path.of("deploy/prometheus/alerts-test.yml");
    private static final Pattern BRIDGE_METRIC = Pattern.compile("\\bbridge_[a-z_]+");

    @Test
    void promtoolChecksTheRules() throws Exception {
        String output = promtool("check", "rules", RULES.toString());
        assertThat(output).contains("SUCCESS: " + alertNames().size() + " rules found");
    }

    @Test
    void promtoolRunsTheRuleTests() throws Exception {
        String output = promtool("test", "rules", RULE_TESTS.toString());
        assertThat(output).contains("SUCCESS");
    }

    @Test
    void everyAlertIsTestedFiringAndThenClearing() {
        Map<String, List<Boolean>> firingByEvaluation = new LinkedHashMap<>();
        List<Map<String, Object>> tests = YamlFiles.at(YamlFiles.documents(RULE_TESTS).get(0), "tests");
        for (Map<String, Object> test : tests) {
            List<Map<String, Object>> evaluations = YamlFiles.at(test, "alert_rule_test");
            evaluations.stream().sorted((a, b) -> minutes(a.get("eval_time")) - minutes(b.get("eval_time"))).forEach(evaluation -> {
                List<?> expected = (List<?>) evaluation.get("exp_alerts");
                firingByEvaluation.computeIfAbsent((String) evaluation.get("alertname"), name -> new ArrayList<>())
                        .add(expected != null && !expected.isEmpty());
            });
        }
        assertThat(firingByEvaluation.keySet()).containsExactlyInAnyOrderElementsOf(alertNames());
        firingByEvaluation.forEach((alert, firing) -> {
            int firstFiring = firing.indexOf(true);
            assertThat(firstFiring).as(alert + " fires in a test").isNotNegative();
            assertThat(firing.subList(firstFiring, firing.size())).as(alert + " clears after firing").contains(false);
            assertThat(firing.subList(0, firstFiring)).as(alert + " is quiet before it fires").containsOnly(false).isNotEmpty();
        });
    }

    @Test
    void everyAlertIsDocumentedAndUsesDocumentedMetrics() throws IOException {
        String document = Files.readString(MetricTable.DOCUMENT);
        Set<String> documentedMetrics = MetricTable.read().keySet();
        List<Map<String, Object>> groups = YamlFiles.at(YamlFiles.documents(RULES).get(0), "groups");
        for (Map<String, Object> group : groups) {
            List<Map<String, Object>> rules = YamlFiles.at(group, "rules");
            for (Map<String, Object> rule : rules) {
                String alert = (String) rule.get("alert");
                assertThat(document).as("docs/observe.md names " + alert).contains("`" + alert + "`");
                Matcher metric = BRIDGE_METRIC.matcher((String) rule.get("expr"));
                while (metric.find()) {
                    String name = metric.group().replaceAll("_(bucket|count|sum)$", "");
                    assertThat(documentedMetrics).as(alert + " asks for " + metric.group()).contains(name);
                }
            }
        }
    }

    private static Set<String> alertNames() {
        Set<String> names = new TreeSet<>();
        List<Map<String, Object>> groups = YamlFiles.at(YamlFiles.documents(RULES).get(0), "groups");
        for (Map<String, Object> group : groups) {
            List<Map<String, Object>> rules = YamlFiles.at(group, "rules");
            rules.forEach(rule -> names.add((String) rule.get("alert")));
        }
        return names;
    }

    /** "20m" -> 20 */
    private static int minutes(Object evalTime) {
        String text = evalTime.toString();
        assertThat(text).as("eval_time in minutes").endsWith("m");
        return Integer.parseInt(text.substring(0, text.length() - 1));
    }

    /** Runs promtool; fails (never skips) when it is not installed, and when it exits non-zero. */
    private static String promtool(String... arguments) throws Exception {
        List<String> command = new ArrayList<>(List.of("promtool"));
        command.addAll(List.of(arguments));
        Process process;
        try {
            process = new ProcessBuilder(command).redirectErrorStream(true).start();
        } catch (IOException notInstalled) {
            throw new AssertionError("promtool is not installed: apt-get install -y prometheus (CI's .ci/run does)", notInstalled);
        }
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("promtool ends").isTrue();
        assertThat(process.exitValue()).as(String.join(" ", command) + ":\n" + output).isZero();
        return output;
    }
}
