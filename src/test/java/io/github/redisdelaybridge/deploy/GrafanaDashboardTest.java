package io.github.redisdelaybridge.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.redisdelaybridge.testkit.BridgeInstance;
import io.github.redisdelaybridge.testkit.LocalRedis;
import io.github.redisdelaybridge.testkit.PrometheusScrape;
import io.github.redisdelaybridge.testkit.RabbitMqTestClient;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
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
 * deploy/grafana/redis-delay-bridge.json asks only for metrics a running bridge (Kafka and RabbitMQ enabled) exports:
 * every metric name of every panel query and template query is in a real scrape of /observe/metrics. And the other way
 * round: every counter of the bridge's own in that scrape is on the dashboard, so a new counter cannot be forgotten there.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class GrafanaDashboardTest {

    private static final String NAME = "grafana-dashboard";
    private static final Path DASHBOARD = Path.of("deploy/grafana/redis-delay-bridge.json");
    /** PromQL functions and aggregations the dashboard may call. */
    private static final Set<String> FUNCTIONS = Set.of("sum", "max", "min", "count", "avg", "rate", "increase", "irate", "delta",
            "histogram_quantile", "label_values", "topk");
    private static final Pattern IDENTIFIER = Pattern.compile("([a-zA-Z_:][a-zA-Z0-9_:]*)\\s*(\\()?");
    private static final Pattern LABEL_VALUES = Pattern.compile("label_values\\(\\s*([a-zA-Z_:][a-zA-Z0-9_:]*)\\s*,");
    /** The bridge's counters the dashboard leaves out on purpose: each is counted again in a counter a panel shows. */
    private static final Map<String, String> COUNTERS_SHOWN_BY_ANOTHER = Map.of(
            "bridge_publish_deferred_total", "bridge_retries_total{reason=\"not-sent\"}",
            "bridge_leases_reaped_total", "bridge_retries_total{reason=\"lease-expired\"}",
            "bridge_messages_duplicate_id_total", "bridge_messages_dead_lettered_total{reason=\"duplicate-id\"}",
            "bridge_messages_duplicate_total", "bridge_messages_not_stored_total{reason=~\"pending-duplicate|delivered-within-dedupe-window\"}",
            "bridge_cancelled_arrivals_total", "bridge_messages_not_stored_total{reason=\"cancelled-within-cancel-window\"}");

    /** One scrape serves both directions: starting a bridge takes most of this test's time. */
    private static PrometheusScrape cachedScrape;

    @Test
    void everyMetricTheDashboardQueriesIsScraped() throws Exception {
        Set<String> metrics = metricsQueried();
        assertThat(metrics).as("metrics the dashboard queries").contains("bridge_messages_pending", "bridge_messages_due_soon",
                "bridge_delivery_lateness_seconds_bucket", "bridge_messages_dead_lettered_total", "bridge_ready");

        PrometheusScrape scrape = scrapeOfARunningBridge();

        assertThat(metrics).allSatisfy(metric -> assertThat(scrape.hasSample(metric)).as("%s in a scrape", metric).isTrue());
    }

    @Test
    void everyCounterOfTheBridgeIsOnTheDashboard() throws Exception {
        Set<String> counters = new TreeSet<>();
        scrapeOfARunningBridge().types().forEach((family, type) -> {
            if (family.startsWith("bridge_") && type.equals("counter")) {
                counters.add(family.endsWith("_total") ? family : family + "_total");
            }
        });
        assertThat(counters).as("the bridge's counters in a scrape").contains("bridge_messages_scheduled_total",
                "bridge_dead_letters_not_sent_total");
        assertThat(counters).as("the counters shown by another").containsAll(COUNTERS_SHOWN_BY_ANOTHER.keySet());
        counters.removeAll(COUNTERS_SHOWN_BY_ANOTHER.keySet());

        assertThat(metricsQueried()).as("metrics the dashboard queries (give each counter of the bridge a panel query, or name it in"
                + " COUNTERS_SHOWN_BY_ANOTHER with the counter that shows it)").containsAll(counters);
    }

    @Test
    void theMetricNamesOfAQueryAreFound() {
        assertThat(metricsOf("histogram_quantile(0.99, sum by (le, kind) (rate(bridge_delivery_lateness_seconds_bucket{le=\"1.0\",instance=~\"$instance\"}[$__rate_interval])))"))
                .containsExactly("bridge_delivery_lateness_seconds_bucket");
        assertThat(metricsOf("rate(a_sum[5m]) / rate(a_count[5m])")).containsExactly("a_count", "a_sum");
        assertThat(metricsOf("label_values(bridge_ready, instance)")).containsExactly("bridge_ready");
    }

    private static Set<String> metricsQueried() throws IOException {
        JsonNode dashboard = new ObjectMapper().readTree(DASHBOARD.toFile());
        List<String> queries = new ArrayList<>();
        dashboard.findValues("expr").forEach(expr -> queries.add(expr.asText()));
        for (JsonNode variable : dashboard.path("templating").path("list")) {
            if (variable.path("type").asText().equals("query")) {
                queries.add(variable.path("definition").asText());
            }
        }
        assertThat(queries).as("queries in " + DASHBOARD).hasSizeGreaterThan(20);
        Set<String> metrics = new TreeSet<>();
        for (String query : queries) {
            Set<String> names = metricsOf(query);
            assertThat(names).as("metrics of " + query).isNotEmpty();
            metrics.addAll(names);
        }
        return metrics;
    }

    /** The metric names of one PromQL query: what is left once label matchers, ranges, grouping, variables and functions are taken out. */
    static Set<String> metricsOf(String query) {
        Set<String> metrics = new TreeSet<>();
        Matcher labelValues = LABEL_VALUES.matcher(query);
        if (labelValues.find()) {
            metrics.add(labelValues.group(1));
            return metrics;
        }
        String stripped = query.replaceAll("\"[^\"]*\"", "").replaceAll("\\{[^}]*}", "").replaceAll("\\[[^]]*]", "")
                .replaceAll("\\b(by|without)\\s*\\([^)]*\\)", "").replaceAll("\\$\\w+", "");
        Matcher identifier = IDENTIFIER.matcher(stripped);
        while (identifier.find()) {
            String name = identifier.group(1);
            if (identifier.group(2) != null) {
                assertThat(FUNCTIONS).as("a PromQL function in " + query).contains(name);
            } else {
                metrics.add(name);
            }
        }
        return metrics;
    }

    private static synchronized PrometheusScrape scrapeOfARunningBridge() throws InterruptedException {
        if (cachedScrape == null) {
            cachedScrape = freshScrapeOfARunningBridge();
        }
        return cachedScrape;
    }

    private static PrometheusScrape freshScrapeOfARunningBridge() throws InterruptedException {
        LocalRedis.deleteKeys("test-" + NAME);
        try (RabbitMqTestClient rabbitMq = new RabbitMqTestClient();
             BridgeInstance bridge = BridgeInstance.start(BridgeInstance.withRabbitMq(BridgeInstance.settings(NAME, LocalRedis.URI), NAME))) {
            try {
                long deadline = System.currentTimeMillis() + 60_000;
                PrometheusScrape scrape;
                do {
                    System.gc(); // the GC pause timer appears with the first pause after the binder started
                    Thread.sleep(500);
                    scrape = PrometheusScrape.of(bridge);
                } while ((!scrape.hasSample("jvm_gc_pause_seconds_sum") || scrape.value("bridge_ready") != 1)
                        && System.currentTimeMillis() < deadline);
                return scrape;
            } finally {
                rabbitMq.deleteQueue(NAME + ".inbound");
                rabbitMq.deleteQueue(NAME + ".dlq");
            }
        } finally {
            LocalRedis.deleteKeys("test-" + NAME);
        }
    }
}
