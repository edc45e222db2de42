package io.github.redisdelaybridge.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNoException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The Host, Origin, Sec-Fetch-Site and Content-Type rules, value by value (AdminApiForeignPageTest sends them to a bridge). */
class RequestOriginCheckTest {

    private final RequestOriginCheck loopbackOnly = new RequestOriginCheck(List.of());
    private final RequestOriginCheck listed = new RequestOriginCheck(List.of("bridge.example", "Pinned.Example:8443", "*.bridge-svc", "10.1.2.3"));

    @Test
    void theLoopbackNamesAreAlwaysLetInWithAnyPort() {
        for (String host : new String[] {"localhost", "LocalHost:8080", "localhost.:1", "127.0.0.1", "127.0.0.1:8080", "127.9.9.9:80",
                "[::1]", "[::1]:8080", "[0:0:0:0:0:0:0:1]:8080"}) {
            assertThatNoException().as(host).isThrownBy(() -> loopbackOnly.checkHost(host));
        }
        for (String host : new String[] {"evil.example", "evil.example:8080", "localhost.evil.example", "127.0.0.1.evil.example",
                "0.0.0.0:8080", "[::]:8080", "10.1.2.3", "", "local host", "localhost:99999", "user@localhost", "[::1"}) {
            assertForbidden(() -> loopbackOnly.checkHost(host), host);
        }
        assertForbidden(() -> loopbackOnly.checkHost(null), "no Host");
    }

    @Test
    void listedNamesAreLetInAsListed() {
        for (String host : new String[] {"bridge.example", "BRIDGE.example:8080", "pinned.example:8443", "bridge-0.bridge-svc:8080",
                "a.b.bridge-svc", "10.1.2.3:8080", "localhost:8080"}) {
            assertThatNoException().as(host).isThrownBy(() -> listed.checkHost(host));
        }
        for (String host : new String[] {"bridge.example.evil", "xbridge.example", "pinned.example", "pinned.example:8080", "bridge-svc",
                "evil-bridge-svc", "10.1.2.30"}) {
            assertForbidden(() -> listed.checkHost(host), host);
        }
    }

    @Test
    void aRefusedHostNamesTheSettingToChange() {
        assertThatThrownBy(() -> loopbackOnly.checkHost("bridge.prod.svc:8080")).isInstanceOfSatisfying(ApiException.class, e ->
                assertThat(e.getMessage()).contains("'bridge.prod.svc:8080'").contains("bridge.admin.allowed-hosts").contains("BRIDGE_ADMIN_ALLOWED_HOSTS"));
    }

    @Test
    void anEntryThatIsNotAHostNameStopsTheStart() {
        for (String entry : new String[] {"http://bridge.example", "bridge.example/api", "bridge example", "*", "*.", "bridge:port"}) {
            assertThatThrownBy(() -> new RequestOriginCheck(List.of(entry))).as(entry).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("bridge.admin.allowed-hosts");
        }
    }

    @Test
    void onlyTheRequestsOwnOriginPasses() {
        assertThatNoException().isThrownBy(() -> loopbackOnly.check("localhost:8080", "http://localhost:8080", "same-origin"));
        assertThatNoException().isThrownBy(() -> loopbackOnly.check("LOCALHOST:8080", "http://localhost:8080", null));
        assertThatNoException().as("no Origin: curl").isThrownBy(() -> loopbackOnly.check("127.0.0.1:8080", null, null));
        assertThatNoException().as("typed into the address bar").isThrownBy(() -> loopbackOnly.check("127.0.0.1:8080", null, "none"));
        assertThatNoException().as("default ports").isThrownBy(() -> listed.check("bridge.example", "http://bridge.example", null));
        assertThatNoException().as("TLS ended at a proxy").isThrownBy(() -> listed.check("bridge.example", "https://bridge.example:443", null));
        assertThatNoException().isThrownBy(() -> loopbackOnly.check("[::1]:8080", "http://[::1]:8080", null));

        assertForbidden(() -> loopbackOnly.check("localhost:8080", "http://evil.example", null), "another site");
        assertForbidden(() -> loopbackOnly.check("localhost:8080", "http://localhost:3000", null), "another port");
        assertForbidden(() -> loopbackOnly.check("localhost:8080", "http://127.0.0.1:8080", null), "another name for the same address");
        assertForbidden(() -> loopbackOnly.check("localhost:8080", "null", null), "Origin: null");
        assertForbidden(() -> loopbackOnly.check("localhost:8080", "file://", null), "a file: page");
        assertForbidden(() -> loopbackOnly.check("localhost:8080", "http://localhost:8080.evil.example", null), "a suffix");
        assertForbidden(() -> listed.check("bridge.example", "https://bridge.example:8443", null), "TLS on another port");
        assertForbidden(() -> loopbackOnly.check("localhost:8080", null, "cross-site"), "Sec-Fetch-Site: cross-site");
        assertForbidden(() -> loopbackOnly.check("localhost:8080", "http://localhost:8080", "Cross-Site"), "cross-site, any case");
        assertForbidden(() -> loopbackOnly.check("evil.example:8080", "http://evil.example:8080", "same-origin"), "a rebound name");
    }

    @Test
    void aWriteWithABodyMustBeJson() {
        for (String method : new String[] {"POST", "PUT", "PATCH", "DELETE"}) {
            assertThatNoException().isThrownBy(() -> WriteContentTypeCheck.check(method, "application/json", true));
            assertThatNoException().isThrownBy(() -> WriteContentTypeCheck.check(method, "Application/JSON ; charset=utf-8", true));
            assertThatNoException().as("body-less, as the console's cancel and replay")
                    .isThrownBy(() -> WriteContentTypeCheck.check(method, null, false));
            for (String type : new String[] {"text/plain", "text/plain; charset=utf-8", "application/x-www-form-urlencoded",
                    "multipart/form-data; boundary=x", "application/jsonp", "application/json-seq", ""}) {
                assertUnsupported(() -> WriteContentTypeCheck.check(method, type, true), method + " " + type);
                assertUnsupported(() -> WriteContentTypeCheck.check(method, type, false), method + " " + type + " without a body");
            }
            assertUnsupported(() -> WriteContentTypeCheck.check(method, null, true), method + " a body without a Content-Type");
        }
        assertThatNoException().as("reads are not writes").isThrownBy(() -> WriteContentTypeCheck.check("GET", "text/plain", true));
    }

    private static void assertForbidden(Runnable check, String what) {
        assertThatThrownBy(check::run).as(what).isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.status()).isEqualTo(403));
    }

    private static void assertUnsupported(Runnable check, String what) {
        assertThatThrownBy(check::run).as(what).isInstanceOfSatisfying(ApiException.class, e -> {
            assertThat(e.status()).isEqualTo(415);
            assertThat(e.getMessage()).contains("Content-Type: application/json");
        });
    }
}
