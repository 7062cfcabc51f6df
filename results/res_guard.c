/* The read-only guard: an authorizer that admits reading and nothing else.
   It is the third lock of a RES_READONLY connection (after the read-only file
   handle and PRAGMA query_only) and the one that also covers what those two
   let through: ATTACH of a new file, temp objects, state-changing PRAGMAs. */
#include <string.h>
#include <strings.h>

#include "results/results_int.h"

/* PRAGMAs that only report. Those that take an argument here take a table
   or index name, or a row limit; any other PRAGMA with a value sets state. */
static const char *const pragma_reads[] = {
    "application_id", "collation_list", "compile_options", "data_version",
    "database_list", "encoding", "foreign_key_check", "foreign_key_list",
    "foreign_keys", "freelist_count", "function_list", "index_info",
    "index_list", "index_xinfo", "integrity_check", "journal_mode",
    "module_list", "page_count", "page_size", "pragma_list", "query_only",
    "quick_check", "schema_version", "table_info", "table_list",
    "table_xinfo", "user_version",
};

static const char *const pragma_with_arg[] = {
    "foreign_key_check", "foreign_key_list", "index_info", "index_list",
    "index_xinfo", "integrity_check", "quick_check", "table_info",
    "table_list", "table_xinfo",
};

static int in_list(const char *s, const char *const *list, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!strcasecmp(s, list[i]))
            return 1;
    return 0;
}

#define IN_LIST(s, l) in_list(s, l, sizeof l / sizeof *l)

static const char *action_name(int action)
{
    switch (action) {
    case SQLITE_INSERT: return "INSERT";
    case SQLITE_UPDATE: return "UPDATE";
    case SQLITE_DELETE: return "DELETE";
    case SQLITE_CREATE_INDEX: case SQLITE_CREATE_TABLE:
    case SQLITE_CREATE_TEMP_INDEX: case SQLITE_CREATE_TEMP_TABLE:
    case SQLITE_CREATE_TEMP_TRIGGER: case SQLITE_CREATE_TEMP_VIEW:
    case SQLITE_CREATE_TRIGGER: case SQLITE_CREATE_VIEW:
    case SQLITE_CREATE_VTABLE:
        return "CREATE";
    case SQLITE_DROP_INDEX: case SQLITE_DROP_TABLE:
    case SQLITE_DROP_TEMP_INDEX: case SQLITE_DROP_TEMP_TABLE:
    case SQLITE_DROP_TEMP_TRIGGER: case SQLITE_DROP_TEMP_VIEW:
    case SQLITE_DROP_TRIGGER: case SQLITE_DROP_VIEW: case SQLITE_DROP_VTABLE:
        return "DROP";
    case SQLITE_DETACH: return "DETACH";
    case SQLITE_TRANSACTION: return "a transaction";
    case SQLITE_SAVEPOINT: return "SAVEPOINT";
    case SQLITE_REINDEX: return "REINDEX";
    case SQLITE_ANALYZE: return "ANALYZE";
    default: return "a statement that is not a read";
    }
}

/* Record why the first write was refused. A refused write to the schema
   table comes before the statement's own action (CREATE, DROP …) is
   reported, so it is marked for res_query to name the statement instead. */
static void deny(ResDb *db, int schema, const char *fmt, const char *a,
                 const char *b)
{
    if (db->denied[0])
        return;
    snprintf(db->denied, sizeof db->denied, fmt, a, b);
    db->denied_schema = schema;
}

static int authorize(void *ctx, int action, const char *a1, const char *a2,
                     const char *dbname, const char *trigger)
{
    (void)dbname;
    (void)trigger;
    ResDb *db = ctx;
    switch (action) {
    case SQLITE_SELECT:
    case SQLITE_READ:
    case SQLITE_RECURSIVE:
        return SQLITE_OK;
    case SQLITE_FUNCTION:
        /* The only functions with effects beyond their result. */
        if (strcasecmp(a2, "load_extension") &&
            strcasecmp(a2, "fts3_tokenizer"))
            return SQLITE_OK;
        deny(db, 0, "function %s()%s is not allowed", a2, "");
        return SQLITE_DENY;
    case SQLITE_PRAGMA:
        if (IN_LIST(a1, pragma_reads) &&
            (!a2 || IN_LIST(a1, pragma_with_arg)))
            return SQLITE_OK;
        if (a2)
            deny(db, 0, "PRAGMA %s = %s may change the database", a1, a2);
        else
            deny(db, 0, "PRAGMA %s%s may change the database", a1, "");
        return SQLITE_DENY;
    case SQLITE_ATTACH:
        deny(db, 0, "ATTACH of '%s'%s", a1 ? a1 : "", "");
        return SQLITE_DENY;
    case SQLITE_ALTER_TABLE:
        deny(db, 0, "ALTER TABLE on %s%s", a2 ? a2 : "", "");
        return SQLITE_DENY;
    case SQLITE_INSERT:
    case SQLITE_UPDATE:
    case SQLITE_DELETE:
    case SQLITE_DETACH:
    case SQLITE_CREATE_INDEX: case SQLITE_CREATE_TABLE:
    case SQLITE_CREATE_TEMP_INDEX: case SQLITE_CREATE_TEMP_TABLE:
    case SQLITE_CREATE_TEMP_TRIGGER: case SQLITE_CREATE_TEMP_VIEW:
    case SQLITE_CREATE_TRIGGER: case SQLITE_CREATE_VIEW:
    case SQLITE_CREATE_VTABLE:
    case SQLITE_DROP_INDEX: case SQLITE_DROP_TABLE:
    case SQLITE_DROP_TEMP_INDEX: case SQLITE_DROP_TEMP_TABLE:
    case SQLITE_DROP_TEMP_TRIGGER: case SQLITE_DROP_TEMP_VIEW:
    case SQLITE_DROP_TRIGGER: case SQLITE_DROP_VIEW: case SQLITE_DROP_VTABLE:
        if (a1 && (!strcmp(a1, "sqlite_master") ||
                   !strcmp(a1, "sqlite_temp_master")))
            deny(db, 1, "a change to the schema%s%s", "", "");
        else
            deny(db, 0, "%s on %s", action_name(action), a1 ? a1 : "");
        return SQLITE_DENY;
    default:
        deny(db, 0, "%s%s", action_name(action), "");
        return SQLITE_DENY;
    }
}

void res_guard_install(ResDb *db)
{
    /* The table-valued functions (the reading PRAGMAs' pragma_table_info
       …, and json_each and json_tree, which `show --dot` uses) are set up
       on first use by an internal write to the schema table, which the
       guard would refuse: set them up before it is in place. */
    sqlite3_stmt *st;
    for (size_t i = 0; i < sizeof pragma_reads / sizeof *pragma_reads; i++) {
        char sql[64];
        snprintf(sql, sizeof sql, "SELECT * FROM pragma_%s", pragma_reads[i]);
        if (sqlite3_prepare_v2(db->db, sql, -1, &st, NULL) == SQLITE_OK)
            sqlite3_finalize(st);
    }
    if (sqlite3_prepare_v2(db->db, "SELECT * FROM json_each('[]'),"
                           " json_tree('[]')", -1, &st, NULL) == SQLITE_OK)
        sqlite3_finalize(st);
    sqlite3_set_authorizer(db->db, authorize, db);
}
