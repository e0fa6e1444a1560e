package dev.weir.test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * The snippet of docs/java-api.md's section "Testing a rule with weir-test" is the body of
 * {@code WeirTestDriverTest.approvedSpendReachingTheLimitAlertsEarly}, line for line, so the page shows
 * code that compiles and passes.
 */
class ReadmeTestKitSnippetTest
{
    private static final String SECTION = "## Testing a rule with weir-test";

    @Test
    void thePagesSnippetIsTheTestsBody() throws IOException
    {
        final String page = Files.readString(Path.of("..", "docs", "java-api.md"));
        final int section = page.indexOf(SECTION);
        assertTrue(section >= 0, "docs/java-api.md has no section " + SECTION);
        final int start = page.indexOf("```java\n", section) + "```java\n".length();
        final List<String> snippet = page.substring(start, page.indexOf("```", start)).lines()
            .map(String::strip).filter(line -> !line.isEmpty()).toList();
        assertFalse(snippet.isEmpty());

        final String source = Files.readString(Path.of("src", "test", "java", "dev", "weir", "test", "WeirTestDriverTest.java"));
        final int method = source.indexOf("void approvedSpendReachingTheLimitAlertsEarly()");
        assertTrue(method >= 0);
        final List<String> body = source.substring(source.indexOf('{', method) + 1).lines()
            .map(String::strip).filter(line -> !line.isEmpty()).limit(snippet.size()).toList();
        assertEquals(snippet, body, "the snippet of docs/java-api.md and the test body differ");
    }
}
