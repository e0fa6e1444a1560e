package dev.weir.cli;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Checks the relative links of the documentation: each must name a file or directory inside the repository, and
 * an {@code #anchor} must be a heading (GitHub's slug) or HTML anchor of the Markdown page it names. Links with a
 * scheme ({@code https:}, {@code mailto:}) are not followed. Stateless; safe from any thread.
 */
final class DocsLinks
{
    private DocsLinks()
    {
    }

    /**
     * @param root  the repository.
     * @param pages the pages to check.
     * @return one message per broken link ({@code page:line: link 'target' ...: why}); empty when all resolve.
     */
    static List<String> broken(final Path root, final List<MarkdownPage> pages)
    {
        final Path repository = root.toAbsolutePath().normalize();
        final Map<Path, Set<String>> anchors = new HashMap<>();
        final List<String> broken = new ArrayList<>();
        for (final MarkdownPage page : pages)
        {
            for (final MarkdownPage.Located link : page.links())
            {
                final String target = link.text();
                if (target.matches("^[A-Za-z][A-Za-z0-9+.-]*:.*") || target.startsWith("//"))
                {
                    continue;
                }
                final int hash = target.indexOf('#');
                final String path = URLDecoder.decode(hash < 0 ? target : target.substring(0, hash), StandardCharsets.UTF_8);
                final String anchor = hash < 0 ? null : target.substring(hash + 1);
                final Path file = path.isEmpty() ? page.file().toAbsolutePath().normalize()
                    : page.file().toAbsolutePath().getParent().resolve(path).normalize();
                final String at = page.name() + ":" + link.line() + ": link '" + target + "'";
                if (!file.startsWith(repository))
                {
                    broken.add(at + " points outside the repository (" + file + "): state what the reader needs in a page of ours");
                }
                else if (!Files.exists(file))
                {
                    broken.add(at + ": no such file " + repository.relativize(file));
                }
                else if (anchor != null && file.toString().endsWith(".md"))
                {
                    final Set<String> headings = anchors.computeIfAbsent(file, f -> MarkdownPage.read(repository, f).anchors());
                    if (!headings.contains(anchor))
                    {
                        broken.add(at + ": " + repository.relativize(file) + " has no heading with the anchor #" + anchor);
                    }
                }
            }
        }
        return broken;
    }
}
