DROP TABLE posted_variant_versions;
DROP TABLE posted_variants;
