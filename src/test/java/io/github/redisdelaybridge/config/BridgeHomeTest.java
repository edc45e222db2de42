package io.github.redisdelaybridge.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where config/ and routes/ come from: never the current directory by accident. */
class BridgeHomeTest {

    @TempDir
    Path temp;

    @Test
    void theOptionWinsOverThePropertyAndTheVariable() throws IOException {
        Path option = home("option");
        BridgeHome home = BridgeHome.resolve(option.toString(), Map.of("bridge.home", home("property").toString())::get,
                Map.of("BRIDGE_HOME", home("variable").toString())::get, null);

        assertThat(home.directory()).isEqualTo(option);
        assertThat(home.configFile()).isEqualTo(option.resolve("config/application.properties"));
        assertThat(home.routesDirectory()).isEqualTo(option.resolve("routes"));
    }

    @Test
    void thePropertyWinsOverTheVariableWhichWinsOverTheInstallLocation() throws IOException {
        Path property = home("property");
        Path variable = home("variable");
        Path installed = home("installed");
        Path jar = installed.resolve("redis-delay-bridge-1.0.jar");

        assertThat(BridgeHome.resolve(null, Map.of("bridge.home", property.toString())::get,
                Map.of("BRIDGE_HOME", variable.toString())::get, jar).directory()).isEqualTo(property);
        assertThat(BridgeHome.resolve(null, Map.<String, String>of()::get, Map.of("BRIDGE_HOME", variable.toString())::get, jar)
                .directory()).isEqualTo(variable);
        assertThat(BridgeHome.resolve("  ", Map.<String, String>of()::get, Map.of("BRIDGE_HOME", "")::get, jar).directory())
                .isEqualTo(installed);
    }

    @Test
    void theInstallLocationIsTheDistributionOrTheSourceCheckout() throws IOException {
        Path distribution = home("redis-delay-bridge-1.0");
        Path checkout = home("checkout");
        Files.createDirectories(checkout.resolve("target/classes"));

        assertThat(resolveFrom(distribution.resolve("redis-delay-bridge-1.0.jar"))).isEqualTo(distribution);
        assertThat(resolveFrom(checkout.resolve("target/classes"))).isEqualTo(checkout);
        assertThat(resolveFrom(checkout.resolve("target/redis-delay-bridge-1.0.jar"))).isEqualTo(checkout);
    }

    @Test
    void aHomeWithoutSettingsFailsNamingWhereItCameFrom() {
        assertThatThrownBy(() -> BridgeHome.resolve(null, Map.<String, String>of()::get, Map.of("BRIDGE_HOME", temp.toString())::get, null))
                .isInstanceOf(InvalidSettingsException.class)
                .hasMessageStartingWith("BRIDGE_HOME=" + temp + ": ")
                .hasMessageEndingWith("config/application.properties does not exist");
    }

    @Test
    void codeFarFromAnySettingsFailsAskingForBridgeHome() throws IOException {
        Path jar = Files.createDirectories(temp.resolve("a/b/c/d")).resolve("x.jar");

        assertThatThrownBy(() -> resolveFrom(jar)).isInstanceOf(InvalidSettingsException.class)
                .hasMessageContaining("set BRIDGE_HOME or pass --home DIR");
    }

    @Test
    void thisTestRunFindsTheProjectDirectory() {
        assertThat(BridgeHome.resolve(null).configFile()).exists().isEqualTo(Path.of("config/application.properties").toAbsolutePath());
    }

    private static Path resolveFrom(Path codeLocation) {
        return BridgeHome.resolve(null, Map.<String, String>of()::get, Map.<String, String>of()::get, codeLocation).directory();
    }

    private Path home(String name) throws IOException {
        Path home = temp.resolve(name);
        Files.createDirectories(home.resolve("config"));
        Files.writeString(home.resolve("config/application.properties"), "");
        return home.toAbsolutePath().normalize();
    }
}
