package dev.weir.engine.join;

import dev.weir.engine.expr.StringTexts;
import dev.weir.journal.StringDictionaries;

/**
 * The texts of the events' string columns, from the journal's dictionaries (which read what was appended since
 * their last look when they meet an id they do not know). Allocation-free for a known id.
 * <p>
 * Not thread-safe: the dictionaries' owner thread (the publisher's).
 */
public final class DictionaryTexts implements StringTexts
{
    private final StringDictionaries dictionaries;

    /**
     * @param dictionaries the journal's dictionaries, owned by the caller's thread.
     */
    public DictionaryTexts(final StringDictionaries dictionaries)
    {
        this.dictionaries = dictionaries;
    }

    @Override
    public int idOf(final int column, final String text)
    {
        return dictionaries.dictionary(column).idOf(text);
    }

    @Override
    public CharSequence textOf(final int column, final int id)
    {
        return dictionaries.dictionary(column).name(id);
    }

    @Override
    public int definedCount(final int column)
    {
        return dictionaries.dictionary(column).size();
    }
}
