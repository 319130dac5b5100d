export * from './content-summariser';
