package io.github.redisdelaybridge.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.util.Map;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * A bridge guarded by an admin token, on the local Redis and embedded Kafka, and a real headless Chromium (the system's
 * {@code chromium} and {@code chromium-driver}, or {@code -Dchromium.binary} and {@code -Dchromedriver.binary}) to drive
 * its console. The bridge may send to any {@code kafka:<name>.*} topic.
 */
public final class ConsoleInBrowser implements AutoCloseable {

    public final KafkaTestClient kafka;
    public final AdminApiClient api;
    public final String baseUri;
    public final WebDriver browser;
    private final BridgeInstance bridge;

    private ConsoleInBrowser(KafkaTestClient kafka, BridgeInstance bridge, AdminApiClient api, String baseUri, WebDriver browser) {
        this.kafka = kafka;
        this.bridge = bridge;
        this.api = api;
        this.baseUri = baseUri;
        this.browser = browser;
    }

    /**
     * Clears the keys of test {@code name}, creates {@code topics}, starts the bridge with {@code token} and a browser
     * window of {@code windowSize} ({@code width,height}, what the screenshots show).
     */
    public static ConsoleInBrowser start(String name, String token, String windowSize, String... topics) {
        String chromium = System.getProperty("chromium.binary", "/usr/bin/chromium");
        String chromedriver = System.getProperty("chromedriver.binary", "/usr/bin/chromedriver");
        assertThat(new File(chromium)).as("Chromium is needed: apt-get install -y chromium chromium-driver").canRead();
        assertThat(new File(chromedriver)).as("chromedriver is needed: apt-get install -y chromium chromium-driver").canRead();

        LocalRedis.deleteKeys("test-" + name);
        KafkaTestClient kafka = new KafkaTestClient(EmbeddedKafka.bootstrapServers());
        BridgeInstance bridge = null;
        try {
            kafka.createTopics(1, topics);
            Map<String, String> settings = BridgeInstance.settings(name, LocalRedis.URI);
            settings.put("bridge.admin.token", token);
            settings.put("bridge.targets.allowed", "kafka:" + name + ".*");
            bridge = BridgeInstance.start(settings);
            String baseUri = "http://127.0.0.1:" + settings.get("camel.server.port");

            ChromeOptions options = new ChromeOptions();
            options.setBinary(chromium);
            options.addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--window-size=" + windowSize,
                    "--lang=en-US", "--hide-scrollbars");
            // chromedriver's own output goes to a file: nothing from the child processes reaches the test JVM's streams
            ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(new File(chromedriver)).usingAnyFreePort()
                    .withLogFile(new File("target/chromedriver-" + name + ".log")).build();
            return new ConsoleInBrowser(kafka, bridge, new AdminApiClient(baseUri, token), baseUri, new ChromeDriver(service, options));
        } catch (RuntimeException | Error e) {
            // not handed to the test, so nobody else would stop them
            if (bridge != null) {
                bridge.close();
            }
            kafka.close();
            throw e;
        }
    }

    @Override
    public void close() {
        browser.quit();
        bridge.close();
        kafka.close();
    }
}
