import * as React from 'react';
import { Flex, Link, Typography } from '@strapi/design-system';
import { Link as RouterLink } from 'react-router-dom';
import type { LabelledKey } from '../../../../shared/contracts/sync';
import { useContentTypes } from '../../hooks/useContentTypes';
import { entryPath } from '../../utils/entryPath';

/** An entry in a dashboard table: its title links to it in the Content Manager; under it, its type, locale and `detail`. */
export const EntryCell = ({
  entry,
  detail,
  children,
}: {
  entry: LabelledKey;
  detail: React.ReactNode;
  children?: React.ReactNode;
}) => {
  const { names, kindOf } = useContentTypes();
  return (
    <Flex direction="column" alignItems="flex-start">
      <Link tag={RouterLink} to={entryPath(entry, kindOf(entry.contentType))}>
        {entry.label ?? entry.documentId}
      </Link>
      <Typography variant="pi" textColor="neutral600">
        {names(entry.contentType)}
        {entry.locale ? ` · ${entry.locale}` : ''} · {detail}
      </Typography>
      {children}
    </Flex>
  );
};
