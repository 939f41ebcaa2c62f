DROP TABLE api_credentials;
